// Where a free signup goes on to (spec 8: /owner/login after 2 s) when a
// sign-in link was just mailed: the sign-in page says so instead of asking for
// the address as if nothing had happened (issue 26). Small on purpose: the
// signup island imports it.
export const LINK_SENT_LOGIN = '/owner/login?link=sent';

/** Whether the sign-in page was opened by that redirect. */
export const arrivedWithLinkSent = (url: URL) => url.searchParams.get('link') === 'sent';
