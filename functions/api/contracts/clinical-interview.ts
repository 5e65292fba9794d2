import type { clinicalInterview } from '../routes/clinical-interview.js';
import { html, json, none, pdf, type OperationContract } from './contract.js';
import * as R from './responses.js';

export const CLINICAL_INTERVIEW_CONTRACTS: Record<keyof typeof clinicalInterview, OperationContract> = {
  listInterviewTypes: { summary: 'List active interview types', responses: { 200: json('Active interview types', R.InterviewType, 'page') } },
  listTimeslots: { summary: 'List available timeslots of an interview type', responses: { 200: json('Free slots, soonest first', R.Timeslot, 'page') } },
  holdTimeslot: {
    summary: 'Hold a timeslot for 30 minutes',
    responses: { 201: json('Held for 30 minutes', R.Hold), 409: json('The client already has an active hold; `hold` is it', R.HoldConflict) },
  },
  releaseHold: { summary: 'Release a slot hold', responses: { 204: none('Released') } },
  createBooking: { summary: 'Create a booking from a held slot', responses: { 201: json('The booking', R.Booking) } },
  listBookings: { summary: 'List bookings', responses: { 200: json('Bookings, newest first', R.Booking, 'page') } },
  getBooking: { summary: 'Get a single booking', responses: { 200: json('The booking', R.Booking) } },
  downloadInterviewReport: { summary: 'Download the interview report (PDF)', responses: { 200: pdf('The interview report') } },
  showBookingPage: { summary: 'Booking page: free slots and the candidate form (HTML)', responses: { 200: html('The page') } },
  submitBookingPage: {
    summary: 'Booking page: book a slot, candidate pays (HTML form)',
    responses: { 303: none('Done: see Location'), 409: html('The slot was just taken'), 422: html('The form again, with errors') },
  },
  showPaymentPage: { summary: 'Payment page (HTML)', responses: { 200: html('The page') } },
  submitPaymentPage: {
    summary: 'Payment page: pay (HTML form)',
    responses: { 303: none('Done: see Location'), 409: html('The slot was just taken'), 422: html('The form again, with errors') },
  },
};
