// Turns each rebuild into what the server answers, what the open pages are told, and the terminal's one line.
import type { ImagesEncoded } from '../pipeline/pipeline.ts';
import type { OutputFiles } from '../pipeline/write.ts';
import type { DevBuilder, RebuildOutcome } from './builder.ts';
import { describeFailure, errorPage } from './error-page.tsx';
import type { ServedBuild } from './output.ts';
import type { ReloadHub } from './reload.ts';

export interface PublisherOptions {
  builder: DevBuilder;
  hub: Pick<ReloadHub, 'send'>;
  /** External scripts of the error page: the reload client. */
  scripts: string[];
  info(line: string): void;
  error(text: string): void;
}

export class Publisher {
  /** What the server answers with now. */
  served: ServedBuild;
  readonly #options: PublisherOptions;
  /** Names this server's builds apart from a previous run's, so a page left open across a restart reloads. */
  readonly #session = Date.now().toString(36);
  #builds = 0;
  /** The error the pages show and the terminal printed, while the build stays broken. */
  #shownError: string | undefined;
  /** The last error a page rendered on request failed with, printed once. */
  #shownPageError: string | undefined;

  constructor(options: PublisherOptions) {
    this.#options = options;
    this.served = { files: new Map(), build: `${this.#session}.0` };
  }

  /** `what`: the changed files as the terminal names them, or none for the first build. */
  publish(outcome: RebuildOutcome, what: string | undefined): void {
    if (outcome.ok) this.#succeeded(outcome, what);
    else this.#failed(outcome, what);
  }

  /** A change no stage read: nothing to rebuild, but the terminal says so. */
  unused(what: string): void {
    this.#options.info(`${clock()} ${what}: not used by the site, nothing to rebuild`);
  }

  #nextBuild(): string {
    this.#builds += 1;
    return `${this.#session}.${this.#builds}`;
  }

  #succeeded(outcome: Extract<RebuildOutcome, { ok: true }>, what: string | undefined): void {
    const { builder, hub, info } = this.#options;
    const recovered = this.#shownError !== undefined;
    this.#shownError = undefined;
    if (outcome.change !== 'none')
      this.served = {
        files: builder.output!.files,
        build: this.#nextBuild(),
        failedPage: (error) => this.#pageFailed(error),
      };
    const build = this.served.build;
    if (outcome.change === 'css') hub.send({ type: 'css', build, href: builder.output!.stylesheet });
    if (outcome.change === 'page') {
      // When only some pages changed, the others need not reload; after a failure every page shows the error.
      const onlyPages = !recovered && outcome.changed.every((file) => file.endsWith('.html'));
      hub.send({ type: 'reload', build, ...(onlyPages ? { pages: outcome.changed } : {}) });
    }
    const rebuilt = `${outcome.rebuilt.join(', ') || 'pages'} in ${outcome.ms} ms`;
    const action = { none: 'output unchanged', css: 'stylesheet swapped', page: 'pages reloaded' }[outcome.change];
    info(what === undefined ? `${clock()} first build: ${rebuilt}` : `${clock()} ${what}: ${rebuilt}; ${action}`);
  }

  /**
   * The images of a page served, encoded after it (those no run had made): a photo's AVIF at a few widths takes
   * seconds, and until this line its pictures are still coming.
   */
  imagesEncoded({ path, sources, files, ms }: ImagesEncoded): void {
    const names = sources.length > 2 ? `${sources[0]} and ${sources.length - 1} more` : sources.join(' and ');
    const plural = files === 1 ? 'file' : 'files';
    this.#options.info(`${clock()} ${names}: ${files} image ${plural} encoded for ${path} in ${Math.round(ms)} ms`);
  }

  /** A page that fails as it is rendered on request: its error screen, and the error printed once. */
  #pageFailed(error: unknown): string {
    const { builder, scripts } = this.#options;
    const failure = describeFailure(error, builder.paths);
    const text = failure.stack ? `${failure.message}\n${failure.stack}` : failure.message;
    if (text !== this.#shownPageError) {
      this.#shownPageError = text;
      this.#options.info(`${clock()} a page failed as it was rendered; it shows the error`);
      this.#options.error(text.replace(/^/gm, '  '));
    }
    return errorPage(failure, {
      stylesheet: builder.output?.stylesheet,
      scripts,
      lang: builder.config?.site.lang ?? 'en',
      ...builder.errorParts,
    });
  }

  /** Serves the error page in place of every page and tells the pages to show it; prints a new error once. */
  #failed(outcome: Extract<RebuildOutcome, { ok: false }>, what: string | undefined): void {
    const { builder, hub, info, error, scripts } = this.#options;
    const failure = describeFailure(outcome.error, builder.paths);
    const text = failure.stack ? `${failure.message}\n${failure.stack}` : failure.message;
    const repeated = text === this.#shownError;
    info(
      `${clock()} ${what ?? 'first build'}: failed after ${outcome.ms} ms${repeated ? ' (the same error as above)' : '; the pages show the error'}`,
    );
    if (repeated) return;
    this.#shownError = text;
    // The error screen is styled by the site's stylesheet: the one just compiled if the CSS stage got that far.
    const stylesheet = builder.stylesheetFiles();
    // Only the files made so far: every page is the error page now, and making the others would render them all.
    const files: OutputFiles = new Map([...(builder.output?.files.made() ?? []), ...(stylesheet?.files ?? [])]);
    this.served = {
      files,
      build: this.#nextBuild(),
      errorPage: errorPage(failure, {
        stylesheet: stylesheet?.url ?? builder.output?.stylesheet,
        scripts,
        lang: builder.config?.site.lang ?? 'en',
        ...builder.errorParts,
      }),
    };
    hub.send({ type: 'reload', build: this.served.build });
    error(text.replace(/^/gm, '  '));
  }
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}
