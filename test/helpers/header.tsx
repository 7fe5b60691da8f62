// The site's header rendered from the real content and config, as the pages render it: shared by the unit suites.
import type { Content } from '../../content/schema.ts';
import type { SiteInfo } from '../../src/core/config.ts';
import { Header } from '../../src/site/components/Header.tsx';
import { render, type Rendered } from './dom.ts';

/** The theme switch's props, from the theme and the copy, as Layout gives them. */
export function themePropsOf(theme: Content['theme'], copy: Content['copy']) {
  return { fallback: theme.default, labels: copy.ui.theme };
}

/** The header of the page at `path`. */
export function renderHeader(
  site: SiteInfo,
  { copy, navigation, theme }: Pick<Content, 'copy' | 'navigation' | 'theme'>,
  path: string,
): Rendered {
  return render(
    <Header
      company={site.name}
      homeLabel={`${site.name}, home`}
      items={navigation.menu}
      cta={navigation.menuCta}
      path={path}
      menuLabels={{ open: copy.ui.menuOpen, close: copy.ui.menuClose, nav: copy.ui.mainNav }}
      theme={themePropsOf(theme, copy)}
    />,
  );
}
