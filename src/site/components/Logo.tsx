// The company name with its mark, linking home.
import { BrandMark } from './BrandMark.tsx';

export interface LogoProps {
  name: string;
  href: string;
  /** Accessible name of the link; starts with the visible name. */
  label: string;
}

export function Logo({ name, href, label }: LogoProps) {
  return (
    <a className="logo" href={href} aria-label={label}>
      <BrandMark />
      <span className="logo-name">{name}</span>
    </a>
  );
}
