// The company's mark: an accent-coloured tile with three sound bars (the same drawing as public/favicon.svg; colours in styles/header.css).
export function BrandMark({ className = 'brand-mark' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" />
      <path d="M10 20v-8M16 25V7M22 20v-8" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
    </svg>
  );
}
