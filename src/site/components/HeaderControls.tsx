// The interactive part of the header: theme switch and menu, and the header's scrolled state.
import { useEffect, useRef } from 'react';
import { HEADER_SCROLL_THRESHOLD_PX } from '../constants.ts';
import { useScrolledPast } from '../lib/hooks.ts';
import { SiteMenu, type SiteMenuProps } from './SiteMenu.tsx';
import { ThemeSwitch, type ThemeSwitchProps } from './ThemeSwitch.tsx';

export interface HeaderControlsProps {
  menu: SiteMenuProps;
  theme: ThemeSwitchProps;
}

export function HeaderControls({ menu, theme }: HeaderControlsProps) {
  const ref = useRef<HTMLDivElement>(null);
  const scrolled = useScrolledPast(HEADER_SCROLL_THRESHOLD_PX);
  // The <header> around this island is server markup (logo, no-JS menu panel): its data-scrolled is kept from here.
  useEffect(() => {
    if (scrolled !== undefined) ref.current?.closest('.site-header')?.setAttribute('data-scrolled', String(scrolled));
  }, [scrolled]);
  return (
    <div className="header-actions" ref={ref}>
      <ThemeSwitch {...theme} />
      <SiteMenu {...menu} />
    </div>
  );
}
