// The interactive part of the header: theme switch and menu (the scrolled state is lib/header-scroll.ts).
import { SiteMenu, type SiteMenuProps } from './SiteMenu.tsx';
import { ThemeSwitch, type ThemeSwitchProps } from './ThemeSwitch.tsx';

export interface HeaderControlsProps {
  menu: SiteMenuProps;
  theme: ThemeSwitchProps;
}

export function HeaderControls({ menu, theme }: HeaderControlsProps) {
  return (
    <div className="header-actions">
      <ThemeSwitch {...theme} />
      <SiteMenu {...menu} />
    </div>
  );
}
