// The sticky site header: logo, theme switch and menu; smaller and bordered once the page is scrolled past 10 px.
import type { NavLink } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import HeaderControls from '../islands/header-controls.tsx';
import { Logo } from './Logo.tsx';
import { MenuPanel } from './MenuPanel.tsx';
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

/** Server markup around one island (the controls), so the logo and the no-JS menu panel are not shipped as JavaScript. */
export function Header({ company, homeLabel, items, cta, path, menuLabels, theme }: HeaderProps) {
  const withBase = useWithBase();
  return (
    <header className="site-header" data-scrolled="false">
      <div className="container header-inner">
        <Logo name={company} href={withBase('/')} label={homeLabel} />
        <HeaderControls menu={{ items, cta, path, labels: menuLabels }} theme={theme} />
      </div>
      <MenuPanel items={items} cta={cta} path={path} labels={menuLabels} />
    </header>
  );
}
