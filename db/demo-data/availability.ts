// The demo spas that publish their availability (issue 24), so `npm start`
// shows open times at once: in three cities, both modes, several clinicians
// with their own hours, time off, a holiday and a short day. Days are counted
// from the seeding day (Pacific), so the demo stays current. Harborlight is
// the demo owner's spa (people.ts).
import { openingHours } from './build.ts';
import type { DemoAvailability } from './types.ts';

export const demoAvailability: DemoAvailability[] = [
  {
    spaSlug: 'harborlight-aesthetics',
    bookingMode: 'instant',
    treatmentRooms: 3,
    dates: [
      { daysFromToday: 12, ranges: [], note: 'Closed for the holiday' },
      { daysFromToday: 5, ranges: [['10:00', '14:00']], note: 'Short day: team training in the afternoon' },
    ],
    services: {
      'HydraFacial MD': { bufferAfterMinutes: 15 },
      'Dermal Filler': { bufferAfterMinutes: 10 },
      // Resurfacing needs a consultation first: booked by request only.
      'Fraxel Dual Laser Resurfacing': { bookableOnline: false },
    },
    clinicians: {
      'Dr. Elena Marsh': { workingHours: openingHours({ 'mon-wed': '8:30 AM – 1:00 PM', thu: '1:00 PM – 7:00 PM' }) },
      'Priya Nair': { timeOff: [{ fromDaysFromToday: 3, days: 2, note: 'Conference' }] },
      'Jordan Reyes': { workingHours: openingHours({ 'tue-fri': '9:00 AM – 5:00 PM', sat: '9:00 AM – 3:00 PM' }) },
    },
  },
  {
    spaSlug: 'saltwater-skin-atelier',
    bookingMode: 'request',
    slotStepMinutes: 30,
    minNoticeMinutes: 1440,
    dates: [{ daysFromToday: 12, ranges: [], note: 'Closed for the holiday' }],
    services: { 'Signature HydraFacial': { bufferAfterMinutes: 15 } },
    clinicians: {
      'Maya Chen': { timeOff: [{ fromDaysFromToday: 7, days: 5, note: 'Vacation' }] },
    },
  },
  {
    spaSlug: 'jacaranda-aesthetic-institute',
    bookingMode: 'instant',
    minNoticeMinutes: 60,
    bookingHorizonDays: 45,
    dates: [{ daysFromToday: 12, ranges: [], note: 'Closed for the holiday' }],
    services: { 'CoolSculpting Elite': { bufferAfterMinutes: 15 } },
    clinicians: {
      'Dr. Kevin Tran': { workingHours: openingHours({ 'mon-thu': '8:00 AM – 12:00 PM', sat: '9:00 AM – 1:00 PM' }) },
      'Marisol Vega': { timeOff: [{ fromDaysFromToday: 1, days: 1, note: 'Day off' }] },
    },
  },
  {
    spaSlug: 'goldenwest-medical-aesthetics',
    bookingMode: 'request',
    slotStepMinutes: 30,
    treatmentRooms: 2,
    clinicians: {
      'Tessa Long': { workingHours: openingHours({ 'mon-fri': '10:00 AM – 6:00 PM' }), timeOff: [{ fromDaysFromToday: 2, days: 3, note: 'Training' }] },
    },
  },
];
