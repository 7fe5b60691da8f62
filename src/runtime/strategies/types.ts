// The signature every hydration strategy shares.
export type Strategy = (element: HTMLElement, hydrate: () => void) => void;
