// The header's controls: theme switch and menu button, server markup that inline scripts answer (src/site/inline/).
import { SiteMenu, type SiteMenuProps } from './SiteMenu.tsx';
import { ThemeSwitch, type ThemeSwitchProps } from './ThemeSwitch.tsx';

export interface HeaderControlsProps {
  menu: Pick<SiteMenuProps, 'labels'>;
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
