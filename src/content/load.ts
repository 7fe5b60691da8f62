// Loads the Markdown collections declared in content/schema.ts: reads each folder, checks every entry's frontmatter
// against its schema and renders its body, then fails once with every entry's problems, or returns the entries.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { digest, digestHex, shortHex } from '../core/digest.ts';
import { ContentError } from '../core/errors.ts';
import type { ProjectPaths } from '../core/paths.ts';
import { describeIssue } from '../core/validate.ts';
import type { ImageSources } from '../images/source.ts';
import { type Entry, isMarkdownCollection, type MarkdownCollection } from './collection.ts';
import { type MarkdownFolder, markdownFolders, markdownNames } from './files.ts';
import { type Frontmatter, FrontmatterError, splitFrontmatter } from './frontmatter.ts';
import type { MarkdownImages, RenderedMarkdown } from './markdown.ts';
import { MarkdownWorker, renderBodies, WORKER_FROM, type WorkerCounts } from './markdown-pool.ts';

export interface LoadedCollections {
  /** Each Markdown collection's entries, sorted by file name. */
  content: Record<string, Entry[]>;
  /** The Markdown files and the images their bodies use: a change to any of them reloads the collections. */
  inputs: string[];
  /** Hash of everything the entries were made from: their files and their images' bytes. */
  hash: string;
}

/** A body to render: its file, as absolute path and as shown in messages, its frontmatter and body, and its key. */
interface Pending {
  shown: string;
  file: string;
  front: Frontmatter;
  key: string;
}

interface Rendered {
  /** Hash of the body and where it starts. */
  key: string;
  rendered: RenderedMarkdown;
  /** The images the body showed, with their hashes then: a replaced image renders the body again. */
  images: Array<[file: string, hash: string]>;
}

/** The Markdown collections of one project, each body rendered again only when it or one of its images changed. */
export class MarkdownCollections {
  readonly #paths: ProjectPaths;
  readonly #images: ImageSources;
  readonly #rendered = new Map<string, Rendered>();
  /** Each file's frontmatter and body key, made once per text (`prepare` and `load` both need them). */
  readonly #fronts = new Map<string, { text: string; front: Frontmatter; key: string }>();
  /** The .md files `prepare` read, by folder: `load` takes them rather than reading every file a second time. */
  #read = new Map<string, MarkdownFiles>();

  /** More bodies to render than this start a worker thread (default WORKER_FROM). */
  readonly #workerFrom: number | undefined;
  /** Whether each file's frontmatter and render are kept for the next `load` (see the constructor's `reuse`). */
  readonly #reuse: boolean;
  /** A worker started ahead (see earlyWorker), for the first `prepare`. */
  #early: MarkdownWorker | undefined;
  /** A file's text as the build already read it (see the constructor's `texts`). */
  readonly #texts: ((file: string) => string | undefined) | undefined;
  readonly #onWorker: WorkerCounts = { bodies: 0, blocks: 0 };
  /** How pictures are shown (site.config.ts's `markdown.images`). */
  #pictures: MarkdownImages = {};

  constructor(
    paths: ProjectPaths,
    images: ImageSources,
    options: {
      workerFrom?: number;
      worker?: MarkdownWorker;
      /**
       * Keep each file's frontmatter and rendered body once loaded, so that the next `load` renders only what changed
       * (watch; the default). A build loads once: without them, each file's text is let go once its entry is made
       * rather than held to the build's end (20,000 entries: about 25 MB of the heap).
       */
      reuse?: boolean;
      /**
       * A file's text if the build read it already (BuildRecord.take: the record hashes every input as the build
       * starts), each given once; undefined: read from the disk.
       */
      texts?: (file: string) => string | undefined;
    } = {},
  ) {
    this.#paths = paths;
    this.#images = images;
    this.#reuse = options.reuse ?? true;
    this.#workerFrom = options.workerFrom;
    this.#early = options.worker;
    this.#texts = options.texts;
  }

  /** The bodies a worker thread rendered so far, and the code blocks it highlighted (see markdown-pool.ts). */
  get onWorker(): WorkerCounts {
    return { ...this.#onWorker };
  }

  /** The entries of every Markdown collection in `collections`; throws one ContentError listing every problem. */
  async load(collections: Record<string, unknown>): Promise<LoadedCollections> {
    const declared = Object.entries(collections ?? {}).filter((entry): entry is [string, MarkdownCollection] =>
      isMarkdownCollection(entry[1]),
    );
    const problems: string[] = [];
    const content: Record<string, Entry[]> = {};
    const inputs: string[] = [];
    /** What the hash is made of: each file's name and text, then the images' hashes. */
    const hashed = { files: [] as Array<[shown: string, text: string]>, images: [] as string[] };
    const pending: Array<Pending & { entry: Entry }> = [];
    // What `prepare` read for this run, taken once: a later run reads the files again.
    const read = this.#read;
    this.#read = new Map();
    const shownFolder = (folder: string) => relative(this.#paths.root, join(this.#paths.content, folder));
    for (const [name, collection] of declared) {
      const dir = join(this.#paths.content, collection.folder);
      if (!existsSync(dir)) {
        problems.push(
          `${shownFolder(collection.folder)}/ does not exist, but content/schema.ts declares the collection "${name}" in it. Create the folder with .md files or remove the collection.`,
        );
        continue;
      }
      const prepared = read.get(dir);
      const names = prepared?.names ?? markdownNames(dir);
      const files = prepared?.files ?? this.#files(dir, names);
      const texts = prepared?.texts ?? this.#textsOf(files);
      content[name] = [];
      names.forEach((_, index) => {
        const { file, shown } = files[index]!;
        const text = texts[index]!;
        inputs.push(file);
        hashed.files.push([shown, text]);
        const entry = this.#entry(collection, file, shown, text, problems);
        if (!entry) return;
        content[name]!.push(entry.entry);
        if (entry.front) pending.push({ entry: entry.entry, shown, file, front: entry.front, key: entry.key });
      });
    }
    for (const { entry, rendered } of await this.#renderAll(pending)) {
      Object.assign(entry, {
        html: rendered.html,
        headings: rendered.headings,
        links: rendered.links,
        images: rendered.images,
      });
      for (const problem of rendered.problems)
        problems.push(`${entry.file}:${problem.line}: ${problem.message.replace(/\.?$/, '.')}`);
    }
    for (const entries of Object.values(content))
      for (const entry of entries)
        for (const job of entry.images) {
          inputs.push(job.source);
          hashed.images.push(job.sourceHash);
        }
    if (!this.#reuse) {
      this.#fronts.clear();
      this.#rendered.clear();
    }
    if (problems.length > 0)
      throw new ContentError(
        `${problems.length} problem${problems.length > 1 ? 's' : ''} in the Markdown content; fix ${problems.length > 1 ? 'them' : 'it'} and build again:\n  ${problems.join('\n  ')}`,
      );
    let fingerprint: string | undefined;
    return {
      content,
      inputs: [...new Set(inputs)].sort(),
      // Made when first asked: a build that records what each page reads never asks (see pipeline.ts).
      get hash() {
        fingerprint ??= fingerprintOf(hashed);
        return fingerprint;
      },
    };
  }

  /**
   * How the bodies' pictures are shown (site.config.ts's `markdown.images`). Another setting than the last lets go of
   * every body rendered with a picture, which the next `load` renders again: the config loads beside `prepare`, which
   * uses the setting last given.
   */
  showImages(images: MarkdownImages): void {
    if (JSON.stringify(images) === JSON.stringify(this.#pictures)) return;
    this.#pictures = images;
    for (const [file, kept] of this.#rendered) if (kept.images.length > 0) this.#rendered.delete(file);
  }

  /**
   * Renders the body of every .md file in content/'s folders before the schemas are known, so that `load` finds them
   * rendered: the pipeline calls it while esbuild compiles the site's code on the other core. Problems wait for `load`.
   */
  async prepare(): Promise<void> {
    const root = this.#paths.content;
    const early = this.#early;
    this.#early = undefined;
    if (!existsSync(root)) {
      early?.stop();
      return;
    }
    const listed = markdownFolders(root).map(({ dir, names }) => ({ dir, names, files: this.#files(dir, names) }));
    // Many entries never rendered (a first build): the worker starts now, loading while the files are read.
    const unseen = listed.flatMap(({ files }) => files).filter(({ shown }) => !this.#rendered.has(shown)).length;
    const worker = early ?? (unseen > (this.#workerFrom ?? WORKER_FROM) ? MarkdownWorker.start() : undefined);
    try {
      await this.#renderAll(this.#changed(listed), worker);
    } finally {
      worker?.stop();
    }
  }

  /**
   * Each of `dir`'s files `names`, absolute and as shown (from the project's root). One `relative` for the folder: one
   * per file was 0.1 s of a 4,000-entry build's main thread (it resolves both paths against the working directory).
   */
  #files(dir: string, names: string[]): ShownFile[] {
    const absolute = resolve(dir);
    const folder = relative(this.#paths.root, absolute);
    return names.map((name) => ({ file: `${absolute}${sep}${name}`, shown: folder ? `${folder}${sep}${name}` : name }));
  }

  /**
   * The texts of `files`, each as the build already read it (see `texts`) or from the disk, synchronously: thousands of
   * small reads through the thread pool cost four hand-offs each (open, stat, read, close) and most of a cold build's
   * system time on a busy machine.
   */
  #textsOf(files: ShownFile[]): string[] {
    return files.map(({ file }) => this.#texts?.(file) ?? readFileSync(file, 'utf8'));
  }

  /** The bodies of `listed`'s files never rendered or changed since; keeps the files' texts for `load`. */
  #changed(listed: Array<MarkdownFolder & { files: ShownFile[] }>): Pending[] {
    const pending: Pending[] = [];
    this.#read.clear();
    for (const { dir, names, files } of listed) {
      const texts = this.#textsOf(files);
      this.#read.set(dir, { names, files, texts });
      names.forEach((_, index) => {
        const { file, shown } = files[index]!;
        let front: Frontmatter;
        let key: string;
        try {
          ({ front, key } = this.#frontmatter(shown, texts[index]!));
        } catch {
          return; // reported by `load`, with the schema's problems
        }
        const kept = this.#rendered.get(shown);
        if (kept && kept.key === key && this.#imagesUnchanged(kept.images)) return;
        pending.push({ shown, file, front, key });
      });
    }
    return pending;
  }

  /**
   * Renders bodies and keeps each one without problems. Many are shared with a worker thread (markdown-pool.ts), which
   * highlights all code; each body rendered here is parsed just before it is rendered, so that no more than one body's
   * tokens are alive at a time.
   */
  async #renderAll<Item extends Pending>(
    pending: Item[],
    worker?: MarkdownWorker,
  ): Promise<Array<Item & { rendered: RenderedMarkdown }>> {
    if (pending.length === 0) return [];
    // Loaded when a body is to be rendered: markdown-it and its plugins took a tenth of a second of every start-up,
    // Markdown or not.
    const { fenceLanguages, parseMarkdown, renderParsed } = await import('./markdown.ts');
    const parse = (item: Item) =>
      parseMarkdown(item.front.body, {
        file: item.file,
        bodyLine: item.front.bodyLine,
        readImage: (image, what) => this.#images.read(image, what),
        pictures: this.#pictures,
      });
    const { renders, onWorker } = await renderBodies(
      pending.map(({ file, front }) => ({ file, body: front.body, bodyLine: front.bodyLine })),
      {
        languages: [...new Set(pending.flatMap(({ front }) => fenceLanguages(front.body)))],
        renderHere: (index, highlighter) => renderParsed(parse(pending[index]!), highlighter),
        workerFrom: this.#workerFrom,
        worker,
      },
    );
    this.#onWorker.bodies += onWorker.bodies;
    this.#onWorker.blocks += onWorker.blocks;
    return pending.map((item, index) => {
      const rendered = renders[index]!;
      const images = [...new Map(rendered.images.map((job) => [job.source, job.sourceHash])).entries()];
      if (rendered.problems.length === 0) this.#rendered.set(item.shown, { key: item.key, rendered, images });
      return { ...item, rendered };
    });
  }

  #frontmatter(shown: string, text: string): { front: Frontmatter; key: string } {
    const known = this.#fronts.get(shown);
    if (known?.text === text) return known;
    const front = splitFrontmatter(text);
    const made = { text, front, key: bodyKey(front) };
    this.#fronts.set(shown, made);
    return made;
  }

  /** One file's entry: its frontmatter checked now, its body kept from the last render or parsed for rendering. */
  #entry(
    collection: MarkdownCollection,
    file: string,
    shown: string,
    text: string,
    problems: string[],
  ): { entry: Entry; front?: Frontmatter; key: string } | undefined {
    let front: Frontmatter;
    let key: string;
    try {
      ({ front, key } = this.#frontmatter(shown, text));
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      problems.push(`${shown}:${error.line}: ${error.message}; fix the YAML between the "---" lines.`);
      return undefined;
    }
    const parsed = collection.schema.safeParse(front.data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // An unknown field is reported at its own line, not its parent's.
        const at = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
        problems.push(
          describeIssue(`${shown}:${front.lineOf(at)}`, { issues: [issue] } as unknown as z.ZodError, {
            data: front.data,
          }),
        );
      }
      return undefined;
    }
    const slug = file.replace(/^.*[\\/]/, '').replace(/\.md$/, '');
    const entry: Entry = { slug, file: shown, data: parsed.data, html: '', headings: [], links: [], images: [] };
    const kept = this.#rendered.get(shown);
    if (kept && kept.key === key && this.#imagesUnchanged(kept.images)) {
      const { html, headings, links, images } = kept.rendered;
      return { entry: { ...entry, html, headings, links, images }, key };
    }
    return { entry, front, key };
  }

  #imagesUnchanged(images: Array<[file: string, hash: string]>): boolean {
    try {
      return images.every(([file, hash]) => this.#images.read(file, file).hash === hash);
    } catch {
      return false;
    }
  }
}

/** A Markdown file: its absolute path, and as shown (from the project's root). */
interface ShownFile {
  file: string;
  shown: string;
}

interface MarkdownFiles {
  /** The folder's .md file names, sorted. */
  names: string[];
  files: ShownFile[];
  texts: string[];
}

/** Hash of everything the entries were made from: their files' names and texts, and their images' hashes. */
function fingerprintOf({ files, images }: { files: Array<[shown: string, text: string]>; images: string[] }): string {
  const fingerprint = digest();
  for (const [shown, text] of files) fingerprint.update(shown).update('\0').update(text).update('\0');
  for (const image of images) fingerprint.update(image);
  return shortHex(fingerprint);
}

/** What a body's render depends on: its text and the line it starts on. */
function bodyKey(front: Frontmatter): string {
  return digestHex(`${front.bodyLine}\0${front.body}`);
}
