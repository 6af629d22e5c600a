// Stripe.js cannot load here: page.route answers its URL with this small test
// double exposing Stripe(), elements(), confirmPayment() (with the Payment
// Element, or with a client secret and a saved card: a fee the bank wants
// confirmed) and confirmSetup() (a card saved for later), so the checkout and
// card-step islands' states and toasts run for real (checkout.spec.ts,
// content-security.spec.ts, no-show.spec.ts). What the island confirmed is
// kept on window (__confirmed, __confirmedSetup); Stripe's side (the intent
// succeeding, the webhook) is the test's to play through the stand-in.
import type { Page } from '@playwright/test';

const STRIPE_JS_DOUBLE = `
(() => {
  function Stripe(key) {
    const handlers = {};
    const element = {
      mount(target) {
        const node = typeof target === 'string' ? document.querySelector(target) : target;
        const field = document.createElement('div');
        field.setAttribute('data-test-payment-element', '');
        field.textContent = 'Card number (test double)';
        node.appendChild(field);
        setTimeout(() => (handlers.ready || []).forEach((h) => h({ elementType: 'payment' })), 100);
      },
      on(event, handler) { (handlers[event] ||= []).push(handler); return element; },
      off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return element; },
      once(event, handler) { return element.on(event, handler); },
      update() {}, destroy() {}, unmount() {}, focus() {}, blur() {}, clear() {}, collapse() {},
    };
    const elements = { create() { return element; }, getElement() { return element; }, update() {}, fetchUpdates() { return Promise.resolve({}); }, submit() { return Promise.resolve({}); } };
    return {
      elements() { return elements; },
      confirmSetup(options) {
        window.__confirmedSetup = options && options.confirmParams;
        if (window.__confirmThrows) return Promise.reject(new Error('network error'));
        const result = window.__confirmSetupResult || { setupIntent: { id: 'seti_double', status: 'succeeded' } };
        return new Promise((resolve) => setTimeout(() => resolve(result), 100));
      },
      confirmPayment(options) {
        window.__confirmed = options && options.confirmParams;
        window.__confirmedSecret = options && options.clientSecret;
        // A test can make Stripe.js itself fail (a network error): the island's "Payment Error".
        if (window.__confirmThrows) return Promise.reject(new Error('network error'));
        const result = window.__confirmResult || { paymentIntent: { id: 'pi_double', status: 'succeeded' } };
        // A test can hold the answer (window.__holdConfirm) to look at the paying state, then release it.
        return new Promise((resolve) => {
          if (window.__holdConfirm) window.__release = () => resolve(result);
          else setTimeout(() => resolve(result), 200);
        });
      },
      // react-stripe-js checks for these to recognise a Stripe object.
      createToken() { return Promise.resolve({}); },
      createPaymentMethod() { return Promise.resolve({}); },
      confirmCardPayment() { return Promise.resolve({}); },
      _registerWrapper() {},
      registerAppInfo() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;

export async function withStripeDouble(page: Page, confirmResult?: unknown) {
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS_DOUBLE }));
  if (confirmResult) await page.addInitScript((result) => Object.assign(window, { __confirmResult: result }), confirmResult);
}
