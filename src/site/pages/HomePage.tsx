// The landing page: hero, about, services, network, FAQ, banner and call to action, in the spec's order.
import type { Content } from '../../../content/schema.ts';
import type { PageProps } from 'site-gen-ssg';
import { About } from '../components/About.tsx';
import { Banner } from '../components/Banner.tsx';
import { Cta } from '../components/Cta.tsx';
import { FaqSection } from '../components/FaqSection.tsx';
import { Hero } from '../components/Hero.tsx';
import { Layout } from '../components/Layout.tsx';
import { Partners } from '../components/Partners.tsx';
import { Services } from '../components/Services.tsx';

export function HomePage({ site, content, path }: PageProps<Content>) {
  const { copy } = content;
  return (
    <Layout site={site} content={content} path={path}>
      <Hero copy={copy.hero} />
      <About copy={copy.about} />
      <Services items={content.services} copy={copy.services} />
      <Partners items={content.partners} copy={copy.partners} />
      <FaqSection items={content.faq} copy={copy.faq} />
      <Banner copy={copy.banner} />
      <Cta copy={copy.cta} />
    </Layout>
  );
}
