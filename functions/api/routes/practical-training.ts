import { TrainingEventsQuery } from '../schemas/practical-training.js';
import { familyOperations } from './operation.js';

/** The practical training family's own operations (design/practical-training.md); handlers under functions/http/practical-training. */
export const practicalTraining = familyOperations('practical-training', {
  listCourses: { method: 'GET', path: '/courses', handler: 'practical-training/courses-list', auth: 'bearer', contract: 'spec' },
  listLocations: { method: 'GET', path: '/locations', handler: 'practical-training/locations-list', auth: 'bearer', contract: 'spec' },
  listTrainingEvents: { method: 'GET', path: '/training-events', handler: 'practical-training/training-events-list', auth: 'bearer', contract: 'spec', query: TrainingEventsQuery },
  getTrainingEvent: { method: 'GET', path: '/training-events/{id}', handler: 'practical-training/training-events-get', auth: 'bearer', contract: 'spec' },
});
