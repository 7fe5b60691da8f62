// What site-gen needs to know about this site: where it will live, its name and language, and how it is built.
import { defineConfig } from 'site-gen-ssg';

export default defineConfig({
  site: {
    // Change these: the name ends every page title; the URL starts the canonical links and the sitemap.
    name: 'My Site',
    url: 'https://example.com',
    description: 'A small site made with site-gen.',
    lang: 'en',
  },
  // Pictures in the posts are shown in the 40rem (640 px) column of main.css: made and announced (sizes) for that.
  markdown: { images: { width: 640 } },
  deploy: {
    // `site-gen deploy` uploads dist/ to this S3 bucket (or pass --bucket).
    // bucket: 'my-site-bucket',
    // region: 'eu-west-1',
  },
});
