// The lucide icon drawn for each service icon name of the content.
import { AudioLines, Briefcase, Clapperboard, Copyright, Disc3, FileMusic, Headphones, Mic, SlidersHorizontal, TrendingUp } from 'lucide-react';
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
