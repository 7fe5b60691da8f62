// The sticky site header: logo, theme switch and menu; smaller and bordered once the page is scrolled past 10 px.
import type { NavLink } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { HeaderControls } from './HeaderControls.tsx';
import { Logo } from './Logo.tsx';
import { MenuDialog } from './MenuDialog.tsx';
import type { SiteMenuProps } from './SiteMenu.tsx';
import type { ThemeSwitchProps } from './ThemeSwitch.tsx';

export interface HeaderProps {
  company: string;
  homeLabel: string;
  items: NavLink[];
  cta: NavLink;
  path: string;
  menuLabels: SiteMenuProps['labels'];
  theme: ThemeSwitchProps;
}

/** Server markup only: the theme switch and the menu answer through inline scripts (src/site/inline/), never React. */
export function Header({ company, homeLabel, items, cta, path, menuLabels, theme }: HeaderProps) {
  const withBase = useWithBase();
  return (
    <header className="site-header" data-scrolled="false">
      <div className="container header-inner">
        <Logo name={company} href={withBase('/')} label={homeLabel} />
        <HeaderControls menu={{ labels: menuLabels }} theme={theme} />
      </div>
      <MenuDialog items={items} cta={cta} path={path} labels={menuLabels} />
    </header>
  );
}
