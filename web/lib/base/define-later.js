// Imported by the lesson page before its widgets (web/lesson.js): each
// widget tag is then defined in a task of its own, in page order, so the
// page starts in small slices. Pages that embed widgets directly keep the
// usual synchronous definitions. (The lesson reads `deferred`, so a bundler
// that drops modules without used exports keeps this one.)
import { deferDefinitions } from './pe-element.js';

deferDefinitions();
export const deferred = true;
