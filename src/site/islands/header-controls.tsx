// The header's controls as an island: theme switch and menu.
import { island } from 'site-gen-ssg';
import { HeaderControls } from '../components/HeaderControls.tsx';

// interaction: on every page, but needed only once the visitor reaches for the menu or the theme. The pointer arriving
// or the focus is enough to start it, and a press made before it is live is replayed once it is (src/runtime).
export default island('header-controls', HeaderControls, { hydrate: 'interaction' });
