// Keeps one esbuild context alive between builds, so a rebuild reparses only the files that changed (the dev server's client bundle).
import type { BuildContext, BuildOptions, BuildResult } from 'esbuild';
import { context } from './commonjs.ts';

export class EsbuildCache {
  #context: BuildContext | undefined;
  #key: string | undefined;

  /**
   * Builds `options` with the kept context. A context's plugins are fixed when it is made, so `state` names whatever
   * else they read (generated entry sources): the context is made anew when it or any option changes.
   */
  async build<T extends BuildOptions>(options: T, state: unknown): Promise<BuildResult<T>> {
    const key = JSON.stringify([{ ...options, plugins: options.plugins?.map((p) => p.name) }, state]);
    if (!this.#context || key !== this.#key) {
      await this.dispose();
      this.#context = await context(options as BuildOptions);
      this.#key = key;
    }
    return (await this.#context.rebuild()) as BuildResult<T>;
  }

  async dispose(): Promise<void> {
    const kept = this.#context;
    this.#context = undefined;
    this.#key = undefined;
    await kept?.dispose();
  }
}
