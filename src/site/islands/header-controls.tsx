// The header's controls as an island: theme switch, menu, and the header's scrolled state.
import { island } from 'site-gen';
import { HeaderControls } from '../components/HeaderControls.tsx';

// load: on every page, at the top, and the first thing a visitor uses (menu, theme); the scrolled state must also follow the first scroll.
export default island('header-controls', HeaderControls, { hydrate: 'load' });
