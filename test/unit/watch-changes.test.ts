// What the watch terminal says a change was: the file, and whether it was added or removed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { describeChanges } from '../../src/dev/watch.ts';

const changes = suite('watch: the changed files as the terminal names them');

changes('one file by its path, with added or removed; more files by the first and how many more', () => {
  const at = (file: string, event?: 'added' | 'removed') => ({ file: `/site/${file}`, aliases: [], event });
  assert.is(describeChanges([at('content/posts/a.md')], '/site'), 'content/posts/a.md');
  assert.is(describeChanges([at('content/posts/a.md', 'added')], '/site'), 'content/posts/a.md added');
  assert.is(describeChanges([at('content/posts/a.md', 'removed')], '/site'), 'content/posts/a.md removed');
  assert.is(
    describeChanges([at('content/posts/a.md', 'added'), at('content/posts/a.md')], '/site'),
    'content/posts/a.md',
    'added, then edited in the same batch: its last event',
  );
  assert.is(
    describeChanges([at('content/posts/a.md', 'removed'), at('content/posts/b.md', 'added')], '/site'),
    'content/posts/a.md and 1 more',
  );
});

changes.run();
