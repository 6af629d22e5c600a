// Legal text for the Orange County Med Spa Directory website.
// Plain data only: no markdown or HTML inside strings.

export interface LegalSection {
  id: string;
  heading: string;
  paragraphs: string[];
  list?: string[];
}

export interface LegalDocument {
  title: string;
  summary: string;
  lastUpdated: string;
  sections: LegalSection[];
}

const OPERATOR = 'Orange County Med Spa Directory';
const LAST_UPDATED = 'November 1, 2026';
const PRIVACY_EMAIL = 'privacy@ocmedspadirectory.com';
const LEGAL_EMAIL = 'legal@ocmedspadirectory.com';
const INFO_EMAIL = 'info@ocmedspadirectory.com';

export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  summary: `This policy explains what personal information ${OPERATOR} collects, how we use it, who we share it with, and the choices and rights you have, including your rights as a California resident. We do not sell your personal information, we do not share it for cross-context behavioral advertising, and we do not use advertising cookies.`,
  lastUpdated: LAST_UPDATED,
  sections: [
    {
      id: 'who-we-are',
      heading: 'Who we are and what this policy covers',
      paragraphs: [
        `${OPERATOR} ("we", "us", or "our") runs an online directory of medical spas in Orange County, California. Visitors can browse listings, send booking or consultation requests to spas, and pay for some treatments by card. Spa owners can list their business for free or choose a paid Premium or Elite plan.`,
        'This policy applies to our website and the services we provide through it. It does not cover the spas listed in the directory. Each spa has its own privacy practices, and once a spa receives your request, its handling of your information is governed by its own policies and legal obligations.',
      ],
    },
    {
      id: 'information-we-collect',
      heading: 'Information we collect',
      paragraphs: [
        'We collect only the information we need to run the directory, pass your requests to the spas you choose, and operate owner accounts. Depending on how you use the site, this can include the following.',
      ],
      list: [
        'Booking and consultation requests: your name, e-mail address, phone number, preferred date or time, the spa and treatment you are asking about, and any message you choose to write.',
        'Account information: your e-mail address and, if you provide it, your name. We sign you in with a one-time link sent to your e-mail, so we do not collect or store a password.',
        'Spa owner listing information: business name, address, phone number, website, hours, services, prices, photos, descriptions, and the contact details of the person managing the listing.',
        'Payment information: card payments are processed by Stripe. Your card number is entered directly with Stripe and is never stored on our servers. We receive limited details from Stripe, such as the payment amount, status, date, and the last four digits and brand of the card.',
        'Usage and analytics events: pages viewed, listings viewed, searches, button clicks, and similar events, together with a random session identifier, the date and time, general device and browser information, and the referring page. We store a one-way hash of your IP address, not the IP address itself.',
        'Communications: messages you send to us by e-mail or through the site, and records of e-mails we send to you.',
      ],
    },
    {
      id: 'cookies',
      heading: 'Cookies, Do Not Track, and Global Privacy Control',
      paragraphs: [
        'We set a single session cookie only when you sign in, so the site can keep you signed in. It is removed when you sign out or when the session expires. We do not use advertising cookies, and we do not allow third-party advertising networks to track you on our site.',
        'Our analytics use a random session identifier that is not linked to your name or e-mail address, and a hashed version of your IP address. We use this data only to understand how the directory is used and to improve it.',
        'We honor Global Privacy Control (GPC) signals and treat them as a valid request to opt out of the sale or sharing of personal information for your browser. Because we do not sell or share personal information in the first place, a GPC signal does not change how the site works for you. We also respect Do Not Track browser signals in the same way.',
      ],
    },
    {
      id: 'how-we-use-information',
      heading: 'How we use your information',
      paragraphs: ['We use personal information for the purposes below and for no unrelated purpose without telling you first.'],
      list: [
        'To send your booking or consultation request to the spa you selected and to let you know it was sent.',
        'To process payments you make for treatments and to send receipts and payment updates.',
        'To create and manage accounts, including sending sign-in links by e-mail.',
        'To publish and manage spa listings and to bill owners for Premium and Elite plans.',
        'To answer your questions and provide customer support.',
        'To measure how the site is used, fix problems, and improve the directory.',
        'To detect and prevent fraud, spam, abuse, and security incidents.',
        'To comply with the law, enforce our Terms of Service, and protect the rights and safety of our users, the spas, and ourselves.',
      ],
    },
    {
      id: 'how-we-share-information',
      heading: 'How we share your information',
      paragraphs: [
        'When you send a booking or consultation request, we share the details of that request with the spa you chose so it can contact you. That spa then uses your information under its own privacy practices. We do not send your request to spas you did not select.',
        'We use service providers to run the site, and they may handle personal information only on our behalf and under our instructions. These include Stripe for payment processing and subscription billing, an e-mail delivery provider for sign-in links, confirmations, and notices, and hosting providers that run our servers and store our database.',
        'We may also disclose information when required by law or legal process, to protect the rights, property, or safety of our users or others, or as part of a merger, acquisition, or sale of assets, in which case this policy will continue to apply to the information transferred.',
        'We do not sell personal information, and we do not share it for cross-context behavioral advertising. We have not done so in the past 12 months.',
      ],
    },
    {
      id: 'health-information',
      heading: 'Health information notice',
      paragraphs: [
        'Booking and consultation requests sent through this site are not medical records, and we are not your health care provider. Please do not send detailed medical history, diagnoses, medication lists, or other sensitive health details through our forms. Share that information directly with the spa during your consultation.',
        'The spas listed in the directory are independent businesses. Spas that are covered entities under the Health Insurance Portability and Accountability Act (HIPAA) or that are subject to California medical privacy laws are responsible for meeting their own obligations once they receive your information.',
        'We are a directory, not a medical provider, and we do not describe ourselves as a HIPAA covered entity. We do, however, operate with HIPAA-aligned safeguards for the information you send through the site: we collect only what is needed, limit who can access it, encrypt it in transit, and use it only to deliver your request.',
        'Because the message field in a booking request may reveal information about your health or the treatments you are interested in, we treat all booking request content as sensitive. We use it only to deliver your request and provide the service you asked for, and never to infer characteristics about you or for advertising.',
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep information',
      paragraphs: [
        'We keep personal information only as long as we need it for the purposes described in this policy, and then we delete it or de-identify it. How long that is depends on the type of information and why we have it.',
      ],
      list: [
        'Booking requests are kept long enough to deliver them, handle follow-up questions, and resolve disputes, and are then deleted.',
        'Account and listing information is kept while the account or listing is active, and deleted within a reasonable time after you close it, unless we need to keep some of it for the reasons below.',
        'Payment and billing records are kept as long as required for tax, accounting, and legal purposes.',
        'Analytics events are kept in a form that uses hashed IP addresses and random session identifiers, and older events are deleted or aggregated so they no longer relate to an individual.',
        'We may keep information longer where the law requires it or where it is needed to resolve disputes, prevent fraud, or enforce our agreements.',
      ],
    },
    {
      id: 'security',
      heading: 'How we protect information',
      paragraphs: [
        'We use reasonable administrative, technical, and physical safeguards to protect personal information. These include encrypted connections (HTTPS), limited access to our database, sign-in links that expire, and hashing of IP addresses in analytics data.',
        'Card details are handled by Stripe, which is certified to the Payment Card Industry Data Security Standard (PCI DSS), and never pass through or rest on our servers.',
        'No method of transmission or storage is completely secure, so we cannot guarantee absolute security. If we learn of a security breach that affects your personal information, we will notify you as required by law.',
      ],
    },
    {
      id: 'california-rights',
      heading: 'Your California privacy rights',
      paragraphs: [
        'If you are a California resident, the California Consumer Privacy Act, as amended by the California Privacy Rights Act (together, the CCPA), gives you the rights listed below. We extend the same rights to all users where we reasonably can.',
      ],
      list: [
        'Right to know: you can ask what personal information we have collected about you, the categories of sources, the purposes for collecting it, the categories of third parties we disclose it to, and a copy of the specific pieces of information we hold.',
        'Right to delete: you can ask us to delete personal information we collected from you, subject to exceptions allowed by law, such as records we must keep for tax purposes.',
        'Right to correct: you can ask us to correct inaccurate personal information we hold about you.',
        'Right to opt out of sale or sharing: you can tell us not to sell or share your personal information. We do not sell personal information or share it for cross-context behavioral advertising, but you may still submit this request.',
        'Right to limit use of sensitive personal information: we use sensitive personal information only for purposes permitted by law, such as delivering the service you asked for, so we do not offer a separate right to limit.',
        'Right to non-discrimination: we will not deny you service, charge you a different price, or provide a lower quality of service because you exercised any of these rights.',
      ],
    },
    {
      id: 'submitting-requests',
      heading: 'How to submit a privacy request',
      paragraphs: [
        `To make a request, e-mail us at ${PRIVACY_EMAIL} with the subject line "California Privacy Request" and tell us which right you want to use. Please include the e-mail address you used on our site so we can find your information.`,
        'To protect your information, we will verify your request before acting on it. We usually do this by sending a message to the e-mail address on file and asking you to confirm, and we may ask for more information if needed. We will use any information you provide for verification only for that purpose.',
        'You may use an authorized agent to make a request on your behalf. We will ask the agent for your signed written permission, and we may ask you to verify your own identity or confirm directly with us that you gave the agent permission.',
        'We will confirm receipt of your request within 10 business days and respond within 45 days. If we need more time, we will tell you why, and we may take up to 45 more days where the law allows.',
      ],
    },
    {
      id: 'children',
      heading: 'Children and age limits',
      paragraphs: [
        'Our website is not directed to children under 16, and we do not knowingly collect personal information from children under 16. If you believe a child under 16 has given us personal information, please contact us and we will delete it.',
        'Booking requests and treatment payments are intended only for adults aged 18 or older. Many treatments offered by medical spas are not appropriate for, or legally available to, minors, and spas may require proof of age.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      paragraphs: [
        'We may update this policy from time to time. When we do, we will change the last updated date at the top of this page. If we make a material change, we will give notice on the site or by e-mail before the change takes effect.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact us',
      paragraphs: [
        `If you have questions about this policy or how we handle your information, e-mail us at ${PRIVACY_EMAIL}. For general questions about the directory, e-mail ${INFO_EMAIL}.`,
        `${OPERATOR}, Orange County, California.`,
      ],
    },
  ],
};

export const termsOfService: LegalDocument = {
  title: 'Terms of Service',
  summary: `These terms govern your use of the ${OPERATOR} website, including browsing listings, sending booking requests, paying for treatments, and listing a spa. We are a directory, not a medical provider. The spas listed here are independent businesses responsible for their own treatments.`,
  lastUpdated: LAST_UPDATED,
  sections: [
    {
      id: 'acceptance',
      heading: 'Acceptance of these terms',
      paragraphs: [
        `These Terms of Service ("Terms") are an agreement between you and ${OPERATOR} ("we", "us", or "our"). By using our website, sending a booking request, making a payment, or creating an account or listing, you agree to these Terms and to our Privacy Policy.`,
        'If you do not agree, please do not use the site. You must be at least 18 years old to request bookings, pay for treatments, or create a spa owner account.',
      ],
    },
    {
      id: 'our-role',
      heading: 'Our role: a directory, not a medical provider',
      paragraphs: [
        'We operate an online directory of medical spas in Orange County, California. We are not a medical provider, we do not perform or supervise treatments, and we do not employ the practitioners listed on the site.',
        'Nothing on this site is medical advice. Listings, descriptions, prices, and articles are general information only and are not a substitute for a consultation with a qualified, licensed professional. Always talk to a licensed provider about whether a treatment is right for you.',
        "The spas and practitioners listed are independent businesses. They alone are responsible for their treatments, medical supervision, licensing, permits, staff qualifications, patient safety, and results. We do not guarantee the outcome of any treatment, and a listing, badge, or ranking on our site is not an endorsement or a verification of a provider's credentials.",
        "Before booking, we encourage you to confirm a provider's license with the appropriate California board, such as the Medical Board of California or the Board of Registered Nursing.",
      ],
    },
    {
      id: 'booking-requests',
      heading: 'Booking and consultation requests',
      paragraphs: [
        'When you send a booking or consultation request, we pass it to the spa you selected. A request is not a confirmed appointment. Your appointment is confirmed only when the spa confirms it with you directly.',
        'We aim to have spas reply to requests within 24 hours, but this is a goal and not a guarantee. Response times depend on each spa, and we are not responsible if a spa does not reply, declines your request, or changes or cancels an appointment.',
        'Please give accurate contact details and do not include detailed medical history in your message. Each spa sets its own scheduling, cancellation, deposit, and no-show policies, and you should review them with the spa.',
      ],
    },
    {
      id: 'payments',
      heading: 'Payments for treatments',
      paragraphs: [
        "Where a spa offers online payment, card payments are processed by Stripe. By paying, you also agree to Stripe's terms. We never store your full card number.",
        "In line with California's Honest Pricing Law (SB 478), the prices we display are the total price you will pay, including all mandatory fees, other than government-imposed taxes. Where a treatment is priced per unit, such as per unit of a neurotoxin or per syringe of filler, the unit is stated next to the price.",
        "The spa is the seller of the treatment. Refunds, cancellations, and rescheduling are handled according to the spa's own policy, which the spa should make available to you before you pay. If you have a problem with a payment, contact the spa first. You may also contact us and we will try to help.",
        'Your final treatment plan and price may change after your consultation with the provider. Any change should be agreed between you and the spa before treatment.',
      ],
    },
    {
      id: 'listings-and-subscriptions',
      heading: 'Spa listings and owner subscriptions',
      paragraphs: [
        'Spa owners may list their business for free or subscribe to a paid plan with additional features. Paid plans are billed through Stripe and renew automatically until cancelled.',
        'Elite plans are limited to 3 spas per city so that Elite placement stays meaningful. If the Elite plan is full in your city, we may offer you a place on a waiting list.',
        'Your first subscription payment is covered by a 30-day money-back guarantee. If you are not satisfied, contact us within 30 days of that first payment for a full refund of it. The guarantee does not apply to later renewal payments or to plan upgrades.',
        'You can cancel anytime through the billing portal in your account. Cancellation stops future renewals, and your paid features stay active until the end of the billing period you already paid for. Except for the money-back guarantee, payments are not refundable for partial periods unless required by law.',
        'You are responsible for making sure your listing is accurate, current, and lawful, including prices, services, licenses, staff credentials, and before-and-after photos, and that you have the right to use everything you upload. We may edit, reformat, suspend, or remove any listing, and may refuse or end any subscription, if we believe it is inaccurate, misleading, unlawful, or violates these Terms. If we end a paid subscription for reasons other than a violation of these Terms, we will refund the unused portion.',
      ],
      list: ['Free listing: $0.', 'Premium: $97 per month, or $970 per year.', 'Elite: $197 per month, or $1,970 per year, limited to 3 spas per city.'],
    },
    {
      id: 'accounts',
      heading: 'Accounts and sign-in',
      paragraphs: [
        'We sign you in with a one-time link sent to your e-mail address. Keep access to your e-mail secure, because anyone who can open your e-mail may be able to sign in to your account.',
        'You are responsible for activity on your account. Tell us right away if you believe someone has used your account without permission.',
      ],
    },
    {
      id: 'acceptable-use',
      heading: 'Acceptable use',
      paragraphs: ['When using the site, you agree not to do any of the following.'],
      list: [
        'Send false, fake, or spam booking requests, or requests on behalf of another person without their permission.',
        'Post false, misleading, or unlawful content, or content you do not have the right to share.',
        "Impersonate any person or business, or misrepresent a provider's licenses or credentials.",
        'Scrape, copy, or harvest listings or contact details in bulk, or use them to send unsolicited messages.',
        "Interfere with the site's security or operation, probe for weaknesses, or use automated tools that place an unreasonable load on our systems.",
        'Use the site for any illegal purpose or in violation of these Terms.',
      ],
    },
    {
      id: 'reviews-and-content',
      heading: 'Reviews and user content',
      paragraphs: [
        'If you post a review or other content, it must reflect your own honest experience and must not include false statements, personal attacks, private health details of others, or content that is unlawful or infringing. Spa owners and their staff may not review their own business or its competitors, and may not offer incentives for reviews without clearly disclosing them.',
        'You keep ownership of content you submit, but you give us a non-exclusive, royalty-free, worldwide license to host, display, reproduce, adapt, and distribute it in connection with the directory. You confirm that you have the rights needed to grant this license.',
        'We may moderate, decline to publish, or remove content that we believe violates these Terms. We do not remove honest reviews just because they are negative.',
      ],
    },
    {
      id: 'intellectual-property',
      heading: 'Intellectual property',
      paragraphs: [
        `The site, including its design, text, graphics, logos, and software, is owned by ${OPERATOR} or its licensors and is protected by intellectual property laws. Spa names, logos, and photos belong to their respective owners.`,
        'You may use the site for your personal, non-commercial use, and spa owners may use it to manage their own listings. You may not copy, modify, or republish the site or its content without our written permission, except as allowed by law.',
      ],
    },
    {
      id: 'disclaimers',
      heading: 'Disclaimers',
      paragraphs: [
        'The site is provided "as is" and "as available." To the fullest extent allowed by law, we disclaim all warranties, express or implied, including warranties of merchantability, fitness for a particular purpose, and non-infringement.',
        'We do not guarantee that listings, prices, availability, or provider information are accurate, complete, or current, or that the site will be uninterrupted or error-free. We are not responsible for the acts, omissions, treatments, or results of any spa or practitioner.',
      ],
    },
    {
      id: 'limitation-of-liability',
      heading: 'Limitation of liability',
      paragraphs: [
        'To the fullest extent allowed by law, we will not be liable for any indirect, incidental, special, consequential, or punitive damages, or for lost profits, data, or goodwill, arising from your use of the site or from any treatment or service provided by a spa.',
        'To the fullest extent allowed by law, our total liability for any claim relating to the site or these Terms is limited to the greater of $100 or the amount you paid us in the 12 months before the claim arose. Payments you make to a spa for treatments are not amounts paid to us for this purpose.',
        'Some laws do not allow certain limitations of liability, so some of these limits may not apply to you. Nothing in these Terms limits liability that cannot be limited by law, such as liability for fraud or for gross negligence or willful misconduct.',
      ],
    },
    {
      id: 'indemnity',
      heading: 'Indemnity',
      paragraphs: [
        "You agree to defend, indemnify, and hold harmless us and our officers, employees, and agents from any claims, losses, and expenses, including reasonable attorneys' fees, arising from your content, your listing, your violation of these Terms, or your violation of any law or the rights of another person.",
        'If you are a spa owner, this includes claims arising from the treatments and services your business provides.',
      ],
    },
    {
      id: 'governing-law',
      heading: 'Governing law and disputes',
      paragraphs: [
        'These Terms are governed by the laws of the State of California, without regard to its conflict of law rules.',
        'Any dispute relating to the site or these Terms will be brought only in the state or federal courts located in Orange County, California, and you and we consent to the jurisdiction of those courts. Before filing a claim, please contact us so we can try to resolve the issue informally.',
      ],
    },
    {
      id: 'changes-and-contact',
      heading: 'Changes to these terms and contact',
      paragraphs: [
        'We may update these Terms from time to time and will change the last updated date when we do. If we make a material change, we will give notice on the site or by e-mail before it takes effect. Continuing to use the site after the change means you accept the updated Terms.',
        `Questions about these Terms can be sent to ${LEGAL_EMAIL}. For general questions about the directory or your listing, e-mail ${INFO_EMAIL}.`,
      ],
    },
  ],
};
