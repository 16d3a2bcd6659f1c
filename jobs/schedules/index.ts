import { closuresSchedule } from './closures.ts';
import { enforcementSchedule } from './enforcement.ts';
import { roadEventsSchedule } from './road-events.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/** Every recurring job `canmap worker` runs beside the ingest kinds. */
export const scheduledJobs: ScheduledJob[] = [roadEventsSchedule, closuresSchedule, enforcementSchedule];
