// The Contact Us page: heading, introduction and the contact form.
import type { Content } from '../../../content/schema.ts';
import type { PageProps } from 'site-gen-ssg';
import { DisplayTitle } from '../components/DisplayTitle.tsx';
import { Layout } from '../components/Layout.tsx';
import ContactFormIsland from '../islands/contact-form.tsx';
import { fillNodes } from '../lib/text-nodes.ts';

export function ContactPage({ site, content, path }: PageProps<Content>) {
  const { contact } = content.copy;
  return (
    <Layout site={site} content={content} path={path}>
      <section className="page-hero" aria-labelledby="contact-title">
        <div className="container narrow">
          <DisplayTitle as="h1" id="contact-title" title={contact.title} />
          <p className="page-intro">{contact.text}</p>
        </div>
      </section>
      <section className="section contact" aria-label={contact.formLabel}>
        <div className="container narrow">
          <div className="form-card">
            <ContactFormIsland copy={contact} />
          </div>
          <p className="form-alternative">
            {fillNodes(contact.alternative, {
              email: <a href={`mailto:${content.company.email}`}>{content.company.email}</a>,
            })}
          </p>
        </div>
      </section>
    </Layout>
  );
}
