// The sticky site header: logo and menu.
import type { NavLink } from '../../../content/schema.ts';
import { withBase } from '../../base.ts';
import { Logo } from './Logo.tsx';
import { SiteMenu, type SiteMenuProps } from './SiteMenu.tsx';

export interface HeaderProps {
  company: string;
  homeLabel: string;
  items: NavLink[];
  cta: NavLink;
  path: string;
  menuLabels: SiteMenuProps['labels'];
}

export function Header({ company, homeLabel, items, cta, path, menuLabels }: HeaderProps) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo name={company} href={withBase('/')} label={homeLabel} />
        <SiteMenu items={items} cta={cta} path={path} labels={menuLabels} />
      </div>
    </header>
  );
}
