// The site's lucide icons drawn from each icon's data, in the markup lucide-react's own component makes, for less work:
// its component merges its defaults, its classes and the props anew for every icon it draws, which was about 8% of
// rendering a 10,000-page copy of this site (twelve icons a page). test/unit/site-icons.test.tsx holds both to the same
// HTML for every icon the site draws.
import { createElement, type ReactElement } from 'react';

/** What an icon module of lucide-react (`lucide-react/icons/<name>`) exports beside its component: its drawing. */
interface LucideIconData {
  name: string;
  node: ReadonlyArray<readonly [tag: string, attributes: Record<string, string>]>;
  aliases?: readonly string[];
  size?: number;
}

/** The props the site gives its icons; each is lucide-react's of the same name. */
export interface IconProps {
  /** Width and height in px (lucide's default 24). */
  size?: number;
  /** Lucide's default 2. */
  strokeWidth?: number;
  /** Classes after lucide's own (`lucide lucide-<name>`). */
  className?: string;
}

/**
 * The icon of `module`, a lucide-react icon module imported whole (`import * as mail from 'lucide-react/icons/mail'`):
 * an `<svg>` with lucide's attributes in lucide's order, hidden from assistive technology as lucide hides an icon given
 * no label. Its paths are made once, here, and shared by every render.
 */
export function lucideIcon(module: object): (props: IconProps) => ReactElement {
  const data = (module as { __iconData?: LucideIconData }).__iconData;
  if (!data?.name || !Array.isArray(data.node)) {
    // An alias module (lucide-react/icons/copyright) re-exports another icon's component alone, named as that icon.
    const component = (module as { default?: { displayName?: string } }).default?.displayName;
    throw new Error(
      `lucideIcon: the module given has no __iconData: pass a lucide-react icon module imported whole (import * as mail from "lucide-react/icons/mail")${component ? `, by the icon's own name: this one re-exports ${component}, e.g. lucide-react/icons/${kebab(component)}` : ''}.`,
    );
  }
  const own = ['lucide', `lucide-${data.name}`, ...(data.aliases ?? []).map((alias) => `lucide-${alias}`)];
  const viewBox = `0 0 ${data.size ?? 24} ${data.size ?? 24}`;
  const paths = data.node.map(([tag, attributes]) => createElement(tag, attributes));
  const Icon = ({ size = 24, strokeWidth = 2, className }: IconProps) =>
    createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: size,
        height: size,
        viewBox,
        fill: 'none',
        stroke: 'currentColor',
        strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? classes(own, className) : own.join(' '),
        'aria-hidden': 'true',
      },
      paths,
    );
  Icon.displayName = data.name;
  return Icon;
}

/** Lucide's classes then the page's, each once (as lucide merges them). */
function classes(own: readonly string[], className: string): string {
  return [...new Set([...own, ...className.split(/\s+/).filter(Boolean)])].join(' ');
}

/** `CircleLetterC` as its module is named: `circle-letter-c`. */
function kebab(name: string): string {
  return name.replace(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])/g, '-').toLowerCase();
}
