// This site's error screen, which site-gen shows for an island that throws and on the dev server's error page.
export { ErrorScreen as default } from './components/ErrorScreen.tsx';
