// Registers every widget of the course as a custom element. One script for
// course authors (see docs/embedding.md, "Embed a widget"), also used by the
// lesson page itself, so there is one implementation of each widget.
//
//   <script type="module" src="https://…/widgets.js"></script>
//   <rope-clock d-model="8"></rope-clock>
//
// Each widget file defines one element, tag = file name; the compute core is
// loaded relative to this script, on first use. The lesson's questions and
// samples (<pe-quiz quiz="rope-what-rotates">) are lent by id, loaded the
// first time a page asks for one (web/lib/lesson/lesson-registry.js); a page that
// shows the lesson itself registers it (web/lesson.js, web/embed.js).
import { hasLesson, registerLessonLoader } from './lib/lesson/lesson-registry.js';
import './widgets/pe-heatmap.js';
import './widgets/pe-wave-barcode.js';
import './widgets/pe-binary-counter.js';
import './widgets/attention-permutation.js';
import './widgets/learned-overflow.js';
import './widgets/rope-clock.js';
import './widgets/rope-offset-check.js';
import './widgets/alibi-bias.js';
import './widgets/t5-buckets.js';
import './widgets/rope-scaling-lab.js';
import './widgets/rope-config-lab.js';
import './widgets/train-lab.js';
import './widgets/t5-learned-bias.js';
import './widgets/pe-quiz.js';
import './widgets/pe-exercise.js';
import './widgets/pe-code-exercise.js';
import './widgets/pe-quiz-score.js';
import './widgets/pe-live-output.js';

if (!hasLesson()) registerLessonLoader(() => import('./gen/lesson-data.js'));

// Where the quizzes' and exercises' xAPI statements go (an LRS, the activity
// IRIs, the learner): docs/embedding.md, "Sending to an LRS".
export { configureXapi, xapiConfig } from './lib/reporting/xapi.js';
