import { describe, expect, it } from 'vitest';
import {
  listingDataOf,
  listingDataSchema,
  missingFields,
  ownerSignupSchema,
  parseSignupBilling,
  parseSignupTier,
  SIGNUP_MESSAGES,
  signupInput,
} from './owner-signup-schema.ts';

const complete = { spaName: 'Tidewater Skin Studio', ownerEmail: 'Owner@Example.com ', cityId: '3' };
const messageFor = (input: unknown, field: string) => {
  const parsed = ownerSignupSchema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
};

describe('the owner signup form', () => {
  it('says "Missing Information: Please fill in all required fields." through its messages', () => {
    expect(`${SIGNUP_MESSAGES.missing.title}: ${SIGNUP_MESSAGES.missing.description}`).toBe('Missing Information: Please fill in all required fields.');
    expect(`${SIGNUP_MESSAGES.failed.title}: ${SIGNUP_MESSAGES.failed.description}`).toBe('Error: Failed to create spa listing. Please try again.');
    expect(SIGNUP_MESSAGES.success.title).toBe('Success!');
  });

  it('names spaName, ownerEmail and cityId when they are empty or blank', () => {
    expect(missingFields({})).toEqual(['spaName', 'ownerEmail', 'cityId']);
    expect(missingFields({ spaName: '   ', ownerEmail: 'a@b.co', cityId: '' })).toEqual(['spaName', 'cityId']);
    expect(missingFields(complete)).toEqual([]);
    expect(messageFor({ ...complete, spaName: '  ' }, 'spaName')).toBe('Spa name is required');
    expect(messageFor({ ...complete, cityId: '' }, 'cityId')).toBe('Choose a city');
  });

  it('accepts the required fields alone, trimmed and with the owner address lower-cased', () => {
    const parsed = ownerSignupSchema.parse(complete);
    expect(parsed).toMatchObject({ spaName: 'Tidewater Skin Studio', ownerEmail: 'owner@example.com', cityId: 3, tier: 'FREE', billing: 'monthly' });
    expect(parsed.website).toBeUndefined();
    expect(parsed.email).toBeUndefined();
  });

  it('reads a city id from a select (text) or a script (number), and refuses anything else', () => {
    expect(ownerSignupSchema.parse({ ...complete, cityId: 7 }).cityId).toBe(7);
    for (const cityId of ['0', '-1', 'abc', '1.5', '1e3', 2 ** 40, null, '9999999999'])
      expect(messageFor({ ...complete, cityId }, 'cityId')).toBe('Choose a city');
  });

  it('refuses owner and spa addresses that are not e-mail addresses', () => {
    expect(messageFor({ ...complete, ownerEmail: 'not-an-address' }, 'ownerEmail')).toBe('Valid email is required');
    expect(messageFor({ ...complete, email: 'front desk' }, 'email')).toBe('Valid email is required');
    expect(ownerSignupSchema.parse({ ...complete, email: '' }).email).toBeUndefined();
    expect(ownerSignupSchema.parse({ ...complete, email: ' Desk@Spa.com ' }).email).toBe('desk@spa.com');
  });

  it('takes only http(s) websites', () => {
    expect(ownerSignupSchema.parse({ ...complete, website: ' https://tidewater.example/ ' }).website).toBe('https://tidewater.example/');
    // A bare host is an https address (issue 26); anything else without http(s) is refused.
    expect(ownerSignupSchema.parse({ ...complete, website: 'tidewater.example' }).website).toBe('https://tidewater.example');
    expect(ownerSignupSchema.parse({ ...complete, website: '' }).website).toBeUndefined();
    for (const website of ['javascript:alert(1)', 'data:text/html,x', 'tidewater', 'ftp://tidewater.example']) {
      expect(messageFor({ ...complete, website }, 'website')).toBe(SIGNUP_MESSAGES.website);
    }
  });

  it('refuses control characters and over-long text', () => {
    expect(messageFor({ ...complete, spaName: 'Spa\u0000' }, 'spaName')).toBeDefined();
    expect(messageFor({ ...complete, description: 'x'.repeat(5_001) }, 'description')).toBe('At most 5000 characters');
    expect(messageFor({ ...complete, phone: 'call me' }, 'phone')).toBe('Enter a valid phone number');
    expect(ownerSignupSchema.parse({ ...complete, phone: '(949) 555-0142' }).phone).toBe('(949) 555-0142');
  });
});

describe('tier and billing', () => {
  it('reads PREMIUM and ELITE in any case; anything else is FREE (spec 5)', () => {
    expect(parseSignupTier('PREMIUM')).toBe('PREMIUM');
    expect(parseSignupTier('elite')).toBe('ELITE');
    for (const tier of ['FREE', 'gold', '', null, undefined, 3, 'PREMIUM '.repeat(2)]) expect(parseSignupTier(tier)).toBe('FREE');
    expect(ownerSignupSchema.parse({ ...complete, tier: 'platinum' }).tier).toBe('FREE');
  });

  it('reads annual and the spec client’s yearly as annual, anything else as monthly', () => {
    expect(parseSignupBilling('annual')).toBe('annual');
    expect(parseSignupBilling('yearly')).toBe('annual');
    expect(parseSignupBilling('weekly')).toBe('monthly');
  });
});

describe('the same fields as checkout spaData and create-spa payloads', () => {
  it('reads the spec client’s `name` as spaName', () => {
    expect(signupInput({ name: 'Old Client Spa', ownerEmail: 'a@b.co' })).toEqual({ spaName: 'Old Client Spa', ownerEmail: 'a@b.co' });
    expect(signupInput('nonsense')).toEqual({});
  });

  it('turns a parsed form into spaData that the checkout schema accepts', () => {
    const data = listingDataOf(ownerSignupSchema.parse({ ...complete, website: 'https://a.example' }));
    expect(data).toMatchObject({ name: 'Tidewater Skin Studio', cityId: 3, website: 'https://a.example' });
    expect(listingDataSchema.parse(data)).toMatchObject(data);
  });
});
