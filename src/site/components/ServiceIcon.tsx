// The lucide icon drawn for each service icon name of the content.
import AudioLines from 'lucide-react/icons/audio-lines';
import Briefcase from 'lucide-react/icons/briefcase';
import Clapperboard from 'lucide-react/icons/clapperboard';
import Copyright from 'lucide-react/icons/copyright';
import Disc3 from 'lucide-react/icons/disc-3';
import FileMusic from 'lucide-react/icons/file-music';
import Headphones from 'lucide-react/icons/headphones';
import Mic from 'lucide-react/icons/mic';
import SlidersHorizontal from 'lucide-react/icons/sliders-horizontal';
import TrendingUp from 'lucide-react/icons/trending-up';
import type { ServiceIconName } from '../../../content/schema.ts';

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
