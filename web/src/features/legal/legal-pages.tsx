import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './legal.css';

/**
 * The legal pages (spec part 1 §2 "Legal pages"), as static text. The facts the spec fixes are
 * constants so every page states them the same way (§1 trial, §9 retention, breach notice, age).
 */
const LEGAL_LAST_UPDATED = '1 November 2026';
const TRIAL_DAYS = 14;
const RETENTION_DAYS = 90;
const BREACH_NOTICE_HOURS = 72;
const MINIMUM_AGE = 18;

function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <article className="page legal">
      <header className="legal__header">
        <h1>{title}</h1>
        <p className="legal__updated">Last updated: {LEGAL_LAST_UPDATED}</p>
      </header>
      <div className="legal__intro">{intro}</div>
      {children}
      <nav className="legal__related" aria-label="Legal documents">
        <Link to="/terms">Terms of Service</Link>
        <Link to="/privacy">Privacy Policy</Link>
        <Link to="/dpa">Data Processing Addendum</Link>
        <Link to="/subprocessors">Sub-processors</Link>
        <Link to="/cookies">Cookie Policy</Link>
      </nav>
    </article>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="legal__section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <p>
          These terms govern your use of Parlance, a platform that records or ingests business calls, meetings and CRM
          data and turns them into transcripts, scores, analytics and improvement advice. They apply to the service we
          host for you and to the Parlance software when you run it on your own infrastructure. By creating an account
          or using Parlance you accept these terms on behalf of the organisation you represent.
        </p>
      }
    >
      <Section title="1. Who may use Parlance">
        <p>
          Parlance is a business product. You must be at least {MINIMUM_AGE} years old and have the authority to bind
          your organisation (the &quot;Customer&quot;) to these terms. Accounts are for the Customer&apos;s own staff,
          with the role Admin or Manager.
        </p>
      </Section>

      <Section title="2. Accounts and security">
        <p>
          You are responsible for everything done under your accounts. Keep passwords confidential, give access only to
          people who need it, and tell us promptly if you suspect unauthorised use. Admins manage who belongs to the
          Customer&apos;s workspace and which role each person has.
        </p>
      </Section>

      <Section title="3. Free trial">
        <p>
          New customers may use Parlance free of charge for {TRIAL_DAYS} days, with the insight token allowance of the
          trial plan. No payment is taken during the trial. When the trial ends you can choose a paid plan; if you do
          not, access stops and your data is deleted under our normal retention rules.
        </p>
      </Section>

      <Section title="4. Plans, fees and usage">
        <p>
          Plans, prices and the insight tokens each plan includes are shown on our <Link to="/pricing">pricing page</Link>{' '}
          or in your order form. Fees are charged in advance for each billing cycle and exclude taxes. Usage beyond your
          plan&apos;s allowance is charged at the overage rate published on the pricing page. Custom plans are priced
          in a separate agreement, which prevails where it differs from these terms.
        </p>
      </Section>

      <Section title="5. Your data and recordings">
        <p>
          The Customer owns the recordings, transcripts, CRM data and other content it brings to Parlance. You grant us
          only the rights needed to host and process that content to provide the service. You are responsible for
          having a lawful basis to record and analyse each conversation, including informing participants and obtaining
          any consent that call-recording laws in your jurisdiction require.
        </p>
      </Section>

      <Section title="6. Acceptable use">
        <p>You must not use Parlance to:</p>
        <ul>
          <li>record or analyse people unlawfully or without the notice the law requires;</li>
          <li>upload content you have no right to process, or malware;</li>
          <li>attempt to access other customers&apos; data or probe, overload or disrupt the service;</li>
          <li>resell the hosted service without our written agreement.</li>
        </ul>
      </Section>

      <Section title="7. Automated scores and recommendations">
        <p>
          Scores, summaries and recommendations are generated automatically and may be incomplete or wrong. Each score
          cites the evidence it relies on so that a person can check it. Do not use them as the sole basis for decisions
          with legal or similarly significant effects on an individual, such as hiring, dismissal or pay, without
          meaningful human review.
        </p>
      </Section>

      <Section title="8. Self-hosted deployments">
        <p>
          When you run Parlance on your own servers, you operate it: you are responsible for its security, backups,
          updates and for the third-party services you connect to it. We have no access to a self-hosted installation or
          its data unless you grant it for support.
        </p>
      </Section>

      <Section title="9. Term and termination">
        <p>
          You may cancel at any time; cancellation takes effect at the end of the current billing cycle. We may suspend
          or end access for material breach of these terms after notice and, where the breach can be fixed, a reasonable
          chance to fix it. After termination you can export your data for 30 days, after which it is deleted.
        </p>
      </Section>

      <Section title="10. Warranties and liability">
        <p>
          We provide Parlance with reasonable skill and care, but otherwise &quot;as is&quot;. To the extent the law
          allows, neither party is liable for indirect or consequential loss, and each party&apos;s total liability is
          limited to the fees paid in the twelve months before the claim. Nothing in these terms limits liability that
          cannot be limited by law.
        </p>
      </Section>

      <Section title="11. Changes">
        <p>
          We may update these terms. We will give at least 30 days&apos; notice of material changes by e-mail or in the
          product; continuing to use Parlance after they take effect means you accept them.
        </p>
      </Section>
    </LegalPage>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          This policy explains what personal data Parlance handles, why, for how long, and the choices you have. When a
          company uses Parlance to analyse its conversations, that company decides what is recorded and is the
          controller of that data; we process it on its behalf under our{' '}
          <Link to="/dpa">Data Processing Addendum</Link>. For account and website data we are the controller.
        </p>
      }
    >
      <Section title="1. Data we handle">
        <ul>
          <li>
            <strong>Account data:</strong> first and last name, e-mail address, role, company, and a securely hashed
            password. If you sign in with Google we receive your name, e-mail address and Google account identifier.
          </li>
          <li>
            <strong>Conversation data:</strong> call and meeting recordings, transcripts with speaker labels, scores,
            evidence and recommendations.
          </li>
          <li>
            <strong>CRM data:</strong> the contacts, deals and outcomes the Customer chooses to sync.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser type and server logs needed to run and secure the
            service.
          </li>
          <li>
            <strong>Website analytics:</strong> our pages load a third-party web analytics script that records page
            views and general device information. See the <Link to="/cookies">Cookie Policy</Link>.
          </li>
        </ul>
      </Section>

      <Section title="2. How we use it">
        <p>
          We use personal data to provide and secure Parlance, to transcribe, score and analyse conversations for the
          Customer, to send service e-mails such as verification links and invitations, to bill for the service, and to
          understand and improve how our website is used. We do not sell personal data and do not use Customer
          conversation data to train general-purpose AI models.
        </p>
      </Section>

      <Section title="3. Legal bases">
        <p>
          Where the GDPR applies, we rely on performance of our contract with the Customer, our legitimate interests in
          running and improving a secure service, compliance with legal obligations, and consent where the law requires
          it. For conversation data the Customer determines the legal basis.
        </p>
      </Section>

      <Section title="4. How long we keep it">
        <p>
          Conversation and CRM data are kept for up to {RETENTION_DAYS} days by default and then deleted. A Customer may
          set a shorter period or agree a different one in its contract. Account data is kept while the account is
          active and deleted within 30 days after it is closed, except where we must keep billing records for longer by
          law.
        </p>
      </Section>

      <Section title="5. Who we share it with">
        <p>
          We share personal data only with the service providers listed on our{' '}
          <Link to="/subprocessors">sub-processor page</Link>, under contracts that protect it, and with authorities
          where the law requires. When the data leaves the European Economic Area or the United Kingdom, we use standard
          contractual clauses or another lawful transfer mechanism.
        </p>
      </Section>

      <Section title="6. Self-hosted installations">
        <p>
          If your organisation runs Parlance on its own servers, your data stays there and we receive none of it. Your
          organisation&apos;s own privacy notice applies, including whichever analytics or AI providers it connects.
        </p>
      </Section>

      <Section title="7. Security">
        <p>
          Access to Customer data is restricted to the Customer&apos;s own staff and, for support and operations, to the
          minimum number of our personnel. Sessions are protected against cross-site request forgery, and every request
          is checked against the caller&apos;s company.
        </p>
      </Section>

      <Section title="8. Your rights">
        <p>
          Depending on where you live, including under the GDPR and the CCPA, you may have the right to access, correct,
          delete or export your personal data, to object to or restrict its processing, and not to be discriminated
          against for exercising these rights. If your data is in a recording made by a company that uses Parlance,
          please contact that company first; we will help it respond.
        </p>
      </Section>

      <Section title="9. Age">
        <p>
          Parlance is intended for people aged {MINIMUM_AGE} and over. We do not knowingly collect personal data from
          anyone younger.
        </p>
      </Section>

      <Section title="10. Changes and contact">
        <p>
          We will post updates to this policy here and change the date above. Questions about privacy can be sent to the
          contact in your agreement with us, or through the demo request form on our website.
        </p>
      </Section>
    </LegalPage>
  );
}

export function DpaPage() {
  return (
    <LegalPage
      title="Data Processing Addendum"
      intro={
        <p>
          This addendum forms part of the agreement between Parlance and the Customer whenever Parlance processes
          personal data on the Customer&apos;s behalf. It reflects Article 28 of the GDPR, the UK GDPR and comparable
          laws such as the CCPA. The Customer is the controller; Parlance is the processor.
        </p>
      }
    >
      <Section title="1. Details of the processing">
        <ul>
          <li>
            <strong>Purpose:</strong> transcription, scoring, analytics and recommendations for the Customer&apos;s
            calls and meetings, and syncing of CRM records.
          </li>
          <li>
            <strong>Data subjects:</strong> the Customer&apos;s staff, and the customers, prospects and other people who
            take part in recorded conversations or appear in CRM records.
          </li>
          <li>
            <strong>Categories of data:</strong> names, contact details, voice recordings, transcripts, scores, and deal
            and contact information from the CRM.
          </li>
          <li>
            <strong>Duration:</strong> the term of the agreement, plus the deletion period in section 7.
          </li>
        </ul>
      </Section>

      <Section title="2. Instructions">
        <p>
          Parlance processes personal data only on the Customer&apos;s documented instructions, which are the agreement,
          this addendum and the Customer&apos;s configuration of the service. We will tell the Customer if we believe an
          instruction breaks data protection law.
        </p>
      </Section>

      <Section title="3. Confidentiality and security">
        <p>
          Everyone at Parlance who can access Customer personal data is bound by confidentiality. We maintain technical
          and organisational measures appropriate to the risk, including access control limited by role and company,
          protection against request forgery, separation of each customer&apos;s data, logging, and regular review of
          these measures.
        </p>
      </Section>

      <Section title="4. Sub-processors">
        <p>
          The Customer authorises the sub-processors listed on our <Link to="/subprocessors">sub-processor page</Link>.
          We will give at least 30 days&apos; notice before adding or replacing one; the Customer may object on
          reasonable data protection grounds, and if we cannot address the objection the Customer may end the affected
          service. Each sub-processor is bound by data protection terms no less protective than these.
        </p>
      </Section>

      <Section title="5. Assistance">
        <p>
          Taking into account the nature of the processing, we help the Customer respond to requests from data subjects,
          and with data protection impact assessments and consultations with supervisory authorities.
        </p>
      </Section>

      <Section title="6. Personal data breaches">
        <p>
          We will notify the Customer without undue delay, and in any event within {BREACH_NOTICE_HOURS} hours, after
          becoming aware of a personal data breach affecting Customer data. The notice describes what happened, the
          data and people likely affected, the likely consequences, and the measures taken or proposed, and we will
          update it as we learn more.
        </p>
      </Section>

      <Section title="7. Retention, return and deletion">
        <p>
          Conversation and CRM data are kept for up to {RETENTION_DAYS} days by default, or for the period the Customer
          configures. When the agreement ends, the Customer may export its data for 30 days; we then delete it, including
          copies held by sub-processors, unless the law requires us to keep it.
        </p>
      </Section>

      <Section title="8. Audits">
        <p>
          On request we provide the information needed to show compliance with this addendum. Where that is not enough,
          the Customer may audit once a year on 30 days&apos; notice, at its own cost, subject to confidentiality.
        </p>
      </Section>

      <Section title="9. International transfers">
        <p>
          Where personal data is transferred outside the European Economic Area, Switzerland or the United Kingdom to a
          country without an adequacy decision, the standard contractual clauses approved by the European Commission
          (and the UK addendum where relevant) apply.
        </p>
      </Section>

      <Section title="10. Self-hosted deployments">
        <p>
          When the Customer runs Parlance on its own infrastructure, Parlance does not process the Customer&apos;s
          personal data, and this addendum applies only to data the Customer chooses to share with us, for example
          during a support case.
        </p>
      </Section>
    </LegalPage>
  );
}

const SUBPROCESSORS = [
  {
    name: 'Cloud hosting provider',
    purpose: 'Runs the Parlance servers, databases and file storage for the hosted service.',
    data: 'All Customer data, including recordings, transcripts and CRM data.',
    when: 'Always (hosted service)',
  },
  {
    name: 'E-mail delivery provider',
    purpose: 'Sends verification links, invitations and service notices.',
    data: 'Recipient name and e-mail address, message content.',
    when: 'Always (hosted service)',
  },
  {
    name: 'AI model provider',
    purpose: 'Generates criterion suggestions, scores and recommendations when an external model is enabled.',
    data: 'Transcript excerpts and evaluation criteria.',
    when: 'Optional; only if the Customer enables it',
  },
  {
    name: 'Google LLC (Google sign-in)',
    purpose: 'Lets users sign in with a Google account.',
    data: 'Name, e-mail address and Google account identifier.',
    when: 'Optional; only for users who choose Google sign-in',
  },
  {
    name: 'Web analytics provider',
    purpose: 'Measures visits to the Parlance website and app pages.',
    data: 'Page views, IP address, browser and device information.',
    when: 'When analytics is enabled',
  },
] as const;

export function SubprocessorsPage() {
  return (
    <LegalPage
      title="Sub-processors"
      intro={
        <p>
          Parlance uses the service providers below to deliver the hosted service. Each one processes personal data only
          to provide its service to us, under a written agreement with data protection terms at least as protective as
          our <Link to="/dpa">Data Processing Addendum</Link>. The company behind each category is named in your order
          form and is available on request.
        </p>
      }
    >
      <Section title="Current sub-processors">
        <div className="legal__table-wrap">
          <table className="table legal__table">
            <thead>
              <tr>
                <th scope="col">Sub-processor</th>
                <th scope="col">Purpose</th>
                <th scope="col">Personal data</th>
                <th scope="col">When used</th>
              </tr>
            </thead>
            <tbody>
              {SUBPROCESSORS.map((row) => (
                <tr key={row.name}>
                  <th scope="row">{row.name}</th>
                  <td>{row.purpose}</td>
                  <td>{row.data}</td>
                  <td>{row.when}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title="Changes to this list">
        <p>
          We give customers at least 30 days&apos; notice before a new sub-processor starts handling their personal
          data, and update this page at the same time. Customers may object as described in the Data Processing
          Addendum.
        </p>
      </Section>

      <Section title="Self-hosted deployments">
        <p>
          Customers who self-host Parlance choose their own providers for hosting, e-mail delivery, AI models, sign-in
          and analytics, or none at all. In that case the list above does not apply, and Parlance itself is not a
          sub-processor.
        </p>
      </Section>
    </LegalPage>
  );
}

export function CookiesPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      intro={
        <p>
          This policy explains the cookies and similar browser storage Parlance uses, and how you can control them.
          Cookies are small text files a website stores in your browser; local storage and session storage work in a
          similar way.
        </p>
      }
    >
      <Section title="1. Strictly necessary cookies">
        <p>These keep Parlance working and secure. The service cannot work without them, so they need no consent.</p>
        <ul>
          <li>
            <strong>parlance_session</strong>: keeps you signed in. It cannot be read by page scripts and expires when
            your session ends.
          </li>
          <li>
            <strong>parlance_csrf</strong>: protects your account against cross-site request forgery.
          </li>
        </ul>
        <p>
          Over a secure connection these names carry the <code>__Host-</code> prefix, which ties them to our exact
          address.
        </p>
      </Section>

      <Section title="2. Browser storage">
        <p>
          Parlance stores a few values in your browser&apos;s local and session storage: whether you are signed in
          (is-authenticated), which department you last chose (selected-department), and short-lived markers that stop
          a team from being duplicated twice by accident. They contain no personal data and never leave your browser.
        </p>
      </Section>

      <Section title="3. Analytics">
        <p>
          Our pages load a third-party web analytics script that measures page views, how visitors move between pages,
          and general device and browser information. We use the results only in aggregate, to improve the website and
          the product. Operators of self-hosted installations decide whether to load an analytics script at all.
        </p>
      </Section>

      <Section title="4. Third-party features">
        <p>
          If you sign in with Google, or book a demo through the embedded scheduling page, those services may set their
          own cookies under their own policies.
        </p>
      </Section>

      <Section title="5. Your choices">
        <p>
          You can delete or block cookies in your browser settings, and block the analytics script with your
          browser&apos;s tracking protection or a content blocker; the product works without it. Blocking the strictly
          necessary cookies will prevent you from signing in.
        </p>
      </Section>

      <Section title="6. More information">
        <p>
          For how we handle personal data generally, see our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </Section>
    </LegalPage>
  );
}
