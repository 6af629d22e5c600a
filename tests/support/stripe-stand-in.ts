// A local stand-in for the parts of Stripe's API this site calls, so tests
// run the real `stripe` SDK (new Stripe(key, { host, port, protocol: 'http' }))
// without a network or an account. It keeps objects in memory, reads bodies
// form-encoded as the SDK sends them, answers JSON shaped like Stripe's and
// honours Idempotency-Key (the same key returns the first answer).
//
// Calls: payment_intents create (also off-session: customer, payment_method,
// off_session, confirm; a card that asks for authentication answers 402
// `authentication_required`, a declined one `card_declined`, as Stripe does)
// /retrieve/cancel, setup_intents create/retrieve/cancel, customers create,
// checkout.sessions create/retrieve/expire, billing_portal.sessions create,
// subscriptions retrieve/update, prices list (lookup_keys) / create,
// refunds create/retrieve (partial too, never more than is left).
// Cards: a payment method made from Stripe's test tokens keeps their
// behaviour: pm_card_visa pays, pm_card_authenticationRequired asks for
// authentication off-session, pm_card_chargeDeclined is declined.
// Test controls: completeCheckout (what Stripe does when the customer pays;
// also POST /test/checkout/sessions/{id}/complete), succeedPaymentIntent (the
// client paid, on-session, optionally with a test card; POST
// /test/payment_intents/{id}/succeed), succeedSetupIntent (the client saved a
// test card; POST /test/setup_intents/{id}/succeed), switchPlan (a plan
// switched in the customer portal; POST /test/subscriptions/{id}/switch with
// lookup_key), setSubscription, setPaymentIntent, and the request log.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;

export interface StandInRequest {
  method: string;
  path: string;
  params: Obj;
  idempotencyKey: string | null;
}

export interface StripeStandIn {
  url: string;
  port: number;
  /** A real SDK client pointed at the stand-in. */
  client: (key?: string) => Stripe;
  requests: StandInRequest[];
  paymentIntents: Map<string, Obj>;
  customers: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  prices: Map<string, Obj>;
  refunds: Map<string, Obj>;
  setupIntents: Map<string, Obj>;
  /** The client paid the intent (Stripe.js confirmed it): succeeded, with a charge; `card` a test token (its method is saved). */
  succeedPaymentIntent: (id: string, card?: string) => Obj;
  /** The client saved a card with the SetupIntent (Stripe.js confirmSetup): `card` a test token. */
  succeedSetupIntent: (id: string, card?: string) => Obj;
  /** The customer switched the subscription to the price with this lookup key in the portal. */
  switchPlan: (subscriptionId: string, lookupKey: string) => Obj;
  /** The customer pays: the session completes and a subscription starts (status `active`). */
  completeCheckout: (sessionId: string, status?: string) => Obj;
  setSubscription: (id: string, patch: Obj) => Obj;
  setPaymentIntent: (id: string, patch: Obj) => Obj;
  /** Makes the next n calls answer 500 (to test failures). */
  failNext: (n: number) => void;
  close: () => Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` pairs into nested objects; objects whose keys are all 0..n-1 become arrays. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Obj = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const obj = value as Obj;
    const keys = Object.keys(obj);
    const converted = Object.fromEntries(keys.map((k) => [k, arrays(obj[k])]));
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => converted[k]);
    return converted;
  };
  return arrays(root) as Obj;
}

const metadataOf = (value: unknown): Obj => (value && typeof value === 'object' ? (value as Obj) : {});

export async function startStripeStandIn(listenPort = 0): Promise<StripeStandIn> {
  const paymentIntents = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const checkoutSessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const setupIntents = new Map<string, Obj>();
  /** Payment methods made by the stand-in, and how their card behaves. */
  const cardBehaviour = new Map<string, 'pays' | 'authentication_required' | 'declined'>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: StandInRequest[] = [];
  let failures = 0;
  let base = '';

  const missing = (what: string, id: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' } },
  });
  const ok = (body: unknown) => ({ status: 200, body });
  const refused = (message: string, code = 'parameter_invalid', status = 400) => ({
    status,
    body: { error: { type: 'invalid_request_error', code, message } },
  });

  function route(method: string, path: string, params: Obj): { status: number; body: unknown } {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = newId('pi');
      const intent: Obj = {
        id,
        object: 'payment_intent',
        amount: Number(params.amount),
        currency: params.currency ?? 'usd',
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        customer: params.customer ?? null,
        payment_method: params.payment_method ?? null,
        setup_future_usage: params.setup_future_usage ?? null,
        description: params.description ?? null,
        receipt_email: params.receipt_email ?? null,
        metadata: metadataOf(params.metadata),
        automatic_payment_methods: params.automatic_payment_methods ? { enabled: true } : null,
        last_payment_error: null,
        created: now(),
        livemode: false,
      };
      if (!(Number(intent.amount) >= 50)) return refused('Amount must be at least $0.50 usd', 'amount_too_small');
      paymentIntents.set(id, intent);
      if (params.confirm === 'true') {
        const method = String(params.payment_method ?? '');
        const behaviour = cardBehaviour.get(method);
        if (!behaviour) return missing('payment_method', method);
        if (params.off_session === 'true' && behaviour === 'authentication_required') {
          const error = {
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          };
          Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', ...error } });
          return { status: 402, body: { error: { type: 'card_error', ...error, payment_intent: intent } } };
        }
        if (behaviour === 'declined') {
          const error = { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
          Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', ...error } });
          return { status: 402, body: { error: { type: 'card_error', ...error, payment_intent: intent } } };
        }
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: newId('ch') });
      }
      return ok(intent);
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const id = newId('seti');
      const intent: Obj = {
        id,
        object: 'setup_intent',
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        customer: params.customer ?? null,
        usage: params.usage ?? 'off_session',
        payment_method: null,
        metadata: metadataOf(params.metadata),
        automatic_payment_methods: params.automatic_payment_methods ? { enabled: true } : null,
        created: now(),
        livemode: false,
      };
      setupIntents.set(id, intent);
      return ok(intent);
    }
    if ((m = /^\/v1\/setup_intents\/([^/]+)$/.exec(path)) && method === 'GET') {
      const intent = setupIntents.get(m[1]!);
      return intent ? ok(intent) : missing('setup_intent', m[1]!);
    }
    if ((m = /^\/v1\/setup_intents\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') {
      const intent = setupIntents.get(m[1]!);
      if (!intent) return missing('setup_intent', m[1]!);
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        return refused(`You cannot cancel this SetupIntent because it has a status of ${String(intent.status)}.`, 'setup_intent_unexpected_state');
      }
      intent.status = 'canceled';
      return ok(intent);
    }
    if ((m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) && method === 'GET') {
      const intent = paymentIntents.get(m[1]!);
      return intent ? ok(intent) : missing('payment_intent', m[1]!);
    }
    if ((m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') {
      const intent = paymentIntents.get(m[1]!);
      if (!intent) return missing('payment_intent', m[1]!);
      if (['succeeded', 'processing', 'canceled'].includes(String(intent.status))) {
        return refused(`You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`, 'payment_intent_unexpected_state');
      }
      intent.status = 'canceled';
      intent.cancellation_reason = params.cancellation_reason ?? null;
      return ok(intent);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = paymentIntents.get(String(params.payment_intent));
      if (!intent) return missing('payment_intent', String(params.payment_intent));
      if (intent.status !== 'succeeded') return refused('This PaymentIntent does not have a successful charge to refund.', 'charge_not_refundable');
      const left = Number(intent.amount_received) - Number(intent._amount_refunded ?? 0);
      const amount = params.amount === undefined ? left : Number(params.amount);
      if (left <= 0) return refused(`Charge ${String(intent.latest_charge)} has already been refunded.`, 'charge_already_refunded');
      if (!(amount > 0) || amount > left)
        return refused(`Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${left / 100})`, 'amount_too_large');
      intent._amount_refunded = Number(intent._amount_refunded ?? 0) + amount;
      const refund: Obj = {
        id: newId('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        charge: intent.latest_charge,
        reason: params.reason ?? null,
        metadata: metadataOf(params.metadata),
        status: 'succeeded',
        created: now(),
      };
      refunds.set(String(refund.id), refund);
      return ok(refund);
    }
    if ((m = /^\/v1\/refunds\/([^/]+)$/.exec(path)) && method === 'GET') {
      const refund = refunds.get(m[1]!);
      return refund ? ok(refund) : missing('refund', m[1]!);
    }
    if (method === 'POST' && path === '/v1/customers') {
      const id = newId('cus');
      const customer = {
        id,
        object: 'customer',
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: metadataOf(params.metadata),
        created: now(),
        livemode: false,
      };
      customers.set(id, customer);
      return ok(customer);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = newId('cs_test');
      const lineItems = (params.line_items as Obj[] | undefined) ?? [];
      for (const item of lineItems) if (!prices.has(String(item.price))) return missing('price', String(item.price));
      const session: Obj = {
        id,
        object: 'checkout.session',
        mode: params.mode ?? 'payment',
        status: 'open',
        payment_status: 'unpaid',
        url: `${base}/pay/${id}`,
        customer: params.customer ?? null,
        customer_email: params.customer_email ?? null,
        client_reference_id: params.client_reference_id ?? null,
        metadata: metadataOf(params.metadata),
        subscription: null,
        success_url: params.success_url ?? null,
        cancel_url: params.cancel_url ?? null,
        expires_at: params.expires_at ? Number(params.expires_at) : now() + 24 * 3600,
        created: now(),
        livemode: false,
        // Not in Stripe's answer; kept so completeCheckout can build the subscription.
        _line_items: lineItems,
        _subscription_data: params.subscription_data ?? {},
      };
      checkoutSessions.set(id, session);
      return ok(publicSession(session));
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === 'GET') {
      const session = checkoutSessions.get(m[1]!);
      return session ? ok(publicSession(session)) : missing('checkout.session', m[1]!);
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === 'POST') {
      const session = checkoutSessions.get(m[1]!);
      if (!session) return missing('checkout.session', m[1]!);
      if (session.status !== 'open') {
        return { status: 400, body: { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status of open can be expired.` } } };
      }
      session.status = 'expired';
      session.url = null;
      return ok(publicSession(session));
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(String(params.customer))) return missing('customer', String(params.customer));
      const id = newId('bps');
      return ok({
        id,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url ?? null,
        url: `${base}/portal/${id}`,
        created: now(),
        livemode: false,
      });
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)) && method === 'GET') {
      const sub = subscriptions.get(m[1]!);
      return sub ? ok(sub) : missing('subscription', m[1]!);
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)) && method === 'POST') {
      const sub = subscriptions.get(m[1]!);
      if (!sub) return missing('subscription', m[1]!);
      const items = (sub.items as { data: Obj[] }).data;
      for (const change of (params.items as Obj[] | undefined) ?? []) {
        const item = items.find((i) => i.id === change.id);
        if (!item) return missing('subscription_item', String(change.id));
        const price = prices.get(String(change.price));
        if (!price) return missing('price', String(change.price));
        item.price = price;
      }
      if (params.metadata) sub.metadata = { ...metadataOf(sub.metadata), ...metadataOf(params.metadata) };
      if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
      return ok(sub);
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = (params.lookup_keys as string[] | undefined) ?? [];
      const data = [...prices.values()].filter((p) => keys.length === 0 || keys.includes(String(p.lookup_key)));
      return ok({ object: 'list', data, has_more: false, url: '/v1/prices' });
    }
    if (method === 'POST' && path === '/v1/prices') {
      const key = params.lookup_key ? String(params.lookup_key) : null;
      if (key && [...prices.values()].some((p) => p.lookup_key === key) && params.transfer_lookup_key !== 'true') {
        return { status: 400, body: { error: { type: 'invalid_request_error', message: `A price (...) already uses that lookup key.` } } };
      }
      const id = newId('price');
      const recurring = params.recurring as Obj | undefined;
      const price = {
        id,
        object: 'price',
        active: true,
        currency: params.currency ?? 'usd',
        unit_amount: Number(params.unit_amount),
        lookup_key: key,
        product: params.product ?? newId('prod'),
        recurring: recurring ? { interval: recurring.interval, interval_count: 1 } : null,
        type: recurring ? 'recurring' : 'one_time',
        metadata: metadataOf(params.metadata),
        created: now(),
        livemode: false,
      };
      prices.set(id, price);
      return ok(price);
    }
    // Test control over HTTP, for a stand-in running in another process (the
    // browser tests' site): the customer pays on the hosted Checkout page.
    if ((m = /^\/test\/checkout\/sessions\/([^/]+)\/complete$/.exec(path)) && method === 'POST') {
      if (!checkoutSessions.has(m[1]!)) return missing('checkout.session', m[1]!);
      return ok(completeCheckout(m[1]!));
    }
    if ((m = /^\/test\/payment_intents\/([^/]+)\/succeed$/.exec(path)) && method === 'POST') {
      if (!paymentIntents.has(m[1]!)) return missing('payment_intent', m[1]!);
      return ok(succeedPaymentIntent(m[1]!, params.card ? String(params.card) : undefined));
    }
    if ((m = /^\/test\/setup_intents\/([^/]+)\/succeed$/.exec(path)) && method === 'POST') {
      if (!setupIntents.has(m[1]!)) return missing('setup_intent', m[1]!);
      return ok(succeedSetupIntent(m[1]!, params.card ? String(params.card) : undefined));
    }
    if ((m = /^\/test\/subscriptions\/([^/]+)\/switch$/.exec(path)) && method === 'POST') {
      if (!subscriptions.has(m[1]!)) return missing('subscription', m[1]!);
      return ok(switchPlan(m[1]!, String(params.lookup_key)));
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    const params = method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    requests.push({ method, path: url.pathname, params, idempotencyKey: key });

    let answer: { status: number; body: unknown };
    if (failures > 0) {
      failures--;
      answer = { status: 500, body: { error: { type: 'api_error', message: 'The stand-in was told to fail.' } } };
    } else if (method === 'POST' && key && idempotent.has(`${url.pathname} ${key}`)) {
      answer = idempotent.get(`${url.pathname} ${key}`)!;
    } else {
      answer = route(method, url.pathname, params);
      if (method === 'POST' && key) idempotent.set(`${url.pathname} ${key}`, answer);
    }
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Request-Id': newId('req'), ...(key ? { 'Idempotency-Key': key } : {}) });
    // Fields named _... are the stand-in's own bookkeeping, never in Stripe's answer.
    res.end(JSON.stringify(answer.body, (name, value: unknown) => (name.startsWith('_') ? undefined : value)));
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  /** A payment method made from one of Stripe's test tokens, behaving as that card does. */
  function cardFrom(token = 'pm_card_visa'): string {
    const behaviour = ({ pm_card_visa: 'pays', pm_card_authenticationRequired: 'authentication_required', pm_card_chargeDeclined: 'declined' } as const)[
      token as 'pm_card_visa'
    ];
    if (!behaviour) throw new Error(`unknown test card ${token}`);
    const id = newId('pm');
    cardBehaviour.set(id, behaviour);
    return id;
  }

  function succeedPaymentIntent(id: string, card?: string): Obj {
    const intent = paymentIntents.get(id);
    if (!intent) throw new Error(`no payment intent ${id}`);
    if (intent.status === 'canceled') throw new Error(`payment intent ${id} is canceled`);
    const paymentMethod = card ? cardFrom(card) : (intent.payment_method ?? cardFrom());
    Object.assign(intent, {
      status: 'succeeded',
      payment_method: paymentMethod,
      amount_received: intent.amount,
      latest_charge: intent.latest_charge ?? newId('ch'),
      last_payment_error: null,
    });
    return intent;
  }

  function succeedSetupIntent(id: string, card?: string): Obj {
    const intent = setupIntents.get(id);
    if (!intent) throw new Error(`no setup intent ${id}`);
    if (intent.status === 'canceled') throw new Error(`setup intent ${id} is canceled`);
    Object.assign(intent, { status: 'succeeded', payment_method: cardFrom(card) });
    return intent;
  }

  function switchPlan(subscriptionId: string, lookupKey: string): Obj {
    const sub = subscriptions.get(subscriptionId);
    const price = [...prices.values()].find((p) => p.lookup_key === lookupKey);
    if (!sub || !price) throw new Error(`no subscription ${subscriptionId} or price ${lookupKey}`);
    ((sub.items as { data: Obj[] }).data[0] as Obj).price = price;
    return sub;
  }

  function completeCheckout(sessionId: string, status = 'active'): Obj {
    const session = checkoutSessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const id = newId('sub');
    const start = now();
    const items = ((session._line_items as Obj[]) ?? []).map((item) => {
      const price = prices.get(String(item.price))!;
      const days = (price.recurring as Obj | null)?.interval === 'year' ? 365 : 30;
      return {
        id: newId('si'),
        object: 'subscription_item',
        price,
        quantity: Number(item.quantity ?? 1),
        current_period_start: start,
        current_period_end: start + days * 86_400,
      };
    });
    const customer = (session.customer as string | null) ?? newId('cus');
    const subscription: Obj = {
      id,
      object: 'subscription',
      status,
      customer,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: null,
      trial_end: null,
      metadata: metadataOf((session._subscription_data as Obj).metadata),
      items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${id}` },
      created: start,
      livemode: false,
    };
    subscriptions.set(id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: id, customer, url: null });
    return subscription;
  }

  return {
    url: base,
    port,
    client: (key = 'sk_test_stand_in') => new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false }),
    requests,
    paymentIntents,
    customers,
    checkoutSessions,
    subscriptions,
    prices,
    refunds,
    setupIntents,
    succeedPaymentIntent,
    succeedSetupIntent,
    switchPlan,
    completeCheckout,
    setSubscription: (id, patch) => Object.assign(subscriptions.get(id) ?? {}, patch),
    setPaymentIntent: (id, patch) => Object.assign(paymentIntents.get(id) ?? {}, patch),
    failNext: (n) => {
      failures = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function publicSession(session: Obj): Obj {
  return Object.fromEntries(Object.entries(session).filter(([k]) => !k.startsWith('_')));
}
