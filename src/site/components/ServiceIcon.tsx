// The lucide icon drawn for each service icon name of the content.
import * as audioLinesIcon from 'lucide-react/icons/audio-lines';
import * as briefcaseIcon from 'lucide-react/icons/briefcase';
import * as clapperboardIcon from 'lucide-react/icons/clapperboard';
import * as circleLetterCIcon from 'lucide-react/icons/circle-letter-c';
import * as disc3Icon from 'lucide-react/icons/disc-3';
import * as fileMusicIcon from 'lucide-react/icons/file-music';
import * as headphonesIcon from 'lucide-react/icons/headphones';
import * as micIcon from 'lucide-react/icons/mic';
import * as slidersHorizontalIcon from 'lucide-react/icons/sliders-horizontal';
import * as trendingUpIcon from 'lucide-react/icons/trending-up';
import type { ServiceIconName } from '../../../content/schema.ts';
import { lucideIcon } from './lucideIcon.ts';

const AudioLines = lucideIcon(audioLinesIcon);
const Briefcase = lucideIcon(briefcaseIcon);
const Clapperboard = lucideIcon(clapperboardIcon);
const Copyright = lucideIcon(circleLetterCIcon);
const Disc3 = lucideIcon(disc3Icon);
const FileMusic = lucideIcon(fileMusicIcon);
const Headphones = lucideIcon(headphonesIcon);
const Mic = lucideIcon(micIcon);
const SlidersHorizontal = lucideIcon(slidersHorizontalIcon);
const TrendingUp = lucideIcon(trendingUpIcon);

const icons = {
  disc: Disc3,
  sliders: SlidersHorizontal,
  mic: Mic,
  copyright: Copyright,
  briefcase: Briefcase,
  clapperboard: Clapperboard,
  music: AudioLines,
  headphones: Headphones,
  'trending-up': TrendingUp,
  'file-music': FileMusic,
} satisfies Record<ServiceIconName, unknown>;

export function ServiceIcon({ name, size = 26 }: { name: ServiceIconName; size?: number }) {
  const Icon = icons[name];
  return <Icon size={size} strokeWidth={1.75} />;
}
