// The not-found page (404.html): what happened, the way home, and a compact call to action.
import type { Content } from '../../../content/schema.ts';
import type { PageProps } from 'site-gen-ssg';
import { useWithBase } from 'site-gen-ssg';
import { ButtonLink } from '../components/ButtonLink.tsx';
import { Cta } from '../components/Cta.tsx';
import { Layout } from '../components/Layout.tsx';
import NotFoundLogger from '../behaviours/not-found-logger.ts';

/** Compact: a short page needs no scroll-to-top button, and the call to action keeps only its headline and booking button. */
export function NotFoundPage({ site, content, path }: PageProps<Content>) {
  const withBase = useWithBase();
  const { notFound, cta } = content.copy;
  return (
    <Layout site={site} content={content} path={path} compact>
      <section className="not-found" aria-labelledby="not-found-title">
        <div className="container narrow">
          <p className="not-found-code" aria-hidden="true">
            {notFound.code}
          </p>
          <h1 className="display" id="not-found-title">
            {notFound.title}
          </h1>
          <p className="page-intro">{notFound.text}</p>
          <div className="actions is-center">
            <ButtonLink href={withBase(notFound.home.href)} size="lg">
              {notFound.home.label}
            </ButtonLink>
          </div>
          <NotFoundLogger message={notFound.log} />
        </div>
      </section>
      <Cta copy={cta} compact />
    </Layout>
  );
}
