// An author's own quiz (web/lib/questions/own-question.js reads it from the element's
// JSON or markup), checked and made into what <pe-quiz> shows, the same as
// one of the lesson's written quizzes: { title, multiple, question, options:
// [{ html, correct, feedback }], explanation }, the texts as HTML.
//
//   {
//     "title": "ALiBi's farthest-looking head",   optional: the question's name in reports (xAPI)
//     "question": "Which head ...?",             required
//     "options": [                               2 to 16
//       { "text": "The last head", "correct": true, "feedback": "Its slope is the smallest ..." },
//       { "text": "The first head", "feedback": "..." }
//     ],
//     "multiple": false,                         true: select all that apply
//     "explanation": "..."                       optional: shown when answered right, or with the solution
//   }
//
// Texts are Markdown with $math$ (web/lib/questions/author-text.js). Every mistake is
// a fieldError naming its field: a missing question, a text that is not
// text, an option without text, no correct option, two correct ones without
// "multiple", a formula the typesetter does not know, an unknown field.
import { authorInline, authorBlocks } from './author-text.js';
import { checkObject, textField, listField, rendered, fieldError, kindOf } from './own-question.js';

const FIELDS = ['title', 'question', 'options', 'multiple', 'explanation'];
const OPTION_FIELDS = ['text', 'correct', 'feedback'];
/** Most options a quiz may have (progress keeps each pick as one hex digit). */
export const MAX_OPTIONS = 16;

export function compileQuiz(definition) {
  const d = checkObject(definition, FIELDS, '');
  const title = textField(d.title, 'title', { required: false });
  const question = textField(d.question, 'question');
  if (d.multiple !== undefined && typeof d.multiple !== 'boolean')
    throw fieldError('multiple', `must be true or false; got ${kindOf(d.multiple)}`);
  const options = listField(d.options, 'options', 2, MAX_OPTIONS).map((o, i) => {
    const path = `options[${i}]`;
    checkObject(o, OPTION_FIELDS, path);
    if (o.correct !== undefined && typeof o.correct !== 'boolean')
      throw fieldError(`${path}.correct`, `must be true or false; got ${kindOf(o.correct)}`);
    const feedback = textField(o.feedback, `${path}.feedback`, { required: false });
    return {
      html: rendered(authorInline, textField(o.text, `${path}.text`), `${path}.text`),
      correct: o.correct === true,
      feedback: feedback === null ? '' : rendered(authorInline, feedback, `${path}.feedback`),
    };
  });
  const right = options.filter((o) => o.correct).length;
  if (right === 0)
    throw fieldError('options', 'no option is marked correct ("correct": true, or data-correct in markup)');
  if (right > 1 && d.multiple !== true)
    throw fieldError(
      'options',
      `${right} options are marked correct; add "multiple": true (data-multiple on the list in markup) for a select-all question`,
    );
  const explanation = textField(d.explanation, 'explanation', { required: false });
  return {
    title: title === null ? null : rendered(authorInline, title, 'title'),
    multiple: d.multiple === true,
    // a legend holds one line: the question's paragraphs run together
    question: rendered(authorInline, question.replace(/\s*\n\s*/g, ' '), 'question'),
    options,
    explanation: explanation === null ? '' : rendered(authorBlocks, explanation, 'explanation'),
  };
}
