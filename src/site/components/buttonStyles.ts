// The class of each button variant and size, shared by Button and ButtonLink (styles in styles/buttons.css).
export const buttonVariants = {
  primary: 'btn-primary',
  outline: 'btn-outline',
  ghost: 'btn-ghost',
} as const;

export const buttonSizes = {
  sm: 'btn-sm',
  md: '',
  lg: 'btn-lg',
} as const;

export type ButtonVariant = keyof typeof buttonVariants;
export type ButtonSize = keyof typeof buttonSizes;
