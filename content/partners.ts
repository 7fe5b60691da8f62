// The seven partners of the logo strip: a streaming service, a music store, two distributors, three performing-rights organizations.
// DEPLOYER: change. These are placeholder names with wordmarks drawn for this project (public/partners/*.svg).
// Replace them with your real partners, logos you are allowed to show (one-colour, black on transparent:
// the dark theme inverts them), their intrinsic width/height, and an `href` to each partner's site if you want links.
import type { ContentInput } from './schema.ts';

export default [
  { id: 'streamwave', name: 'Streamwave', logo: '/partners/streamwave.svg', width: 240, height: 120 },
  { id: 'tunestore', name: 'TuneStore', logo: '/partners/tunestore.svg', width: 220, height: 120 },
  { id: 'releasehub', name: 'ReleaseHub', logo: '/partners/releasehub.svg', width: 240, height: 120 },
  { id: 'distrowave', name: 'Distrowave', logo: '/partners/distrowave.svg', width: 240, height: 120 },
  {
    id: 'songwriters-rights-alliance',
    name: 'Songwriters Rights Alliance',
    logo: '/partners/sra.svg',
    width: 200,
    height: 120,
  },
  {
    id: 'performers-royalty-guild',
    name: 'Performers Royalty Guild',
    logo: '/partners/prg.svg',
    width: 200,
    height: 120,
  },
  {
    id: 'music-rights-collective',
    name: 'Music Rights Collective',
    logo: '/partners/mrc.svg',
    width: 200,
    height: 120,
  },
] satisfies ContentInput['partners'];
