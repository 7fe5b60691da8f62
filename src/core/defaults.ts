// The defaults the layers agree on: where a project's configuration and output are, where the local servers listen.

/** The site configuration, relative to the working folder; its folder is the project root. */
export const DEFAULT_CONFIG = 'site.config.ts';

/** The output folder: what `site-gen build` writes, `site-gen serve` serves and `site-gen deploy` uploads. */
export const DEFAULT_OUT = 'dist';

/** Where `site-gen serve` and `site-gen watch` listen: this machine only, unless asked. */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4321;
