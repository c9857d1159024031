// What <attention-permutation> says in words about a sentence and its
// shuffle: the headline over the maps (what the largest difference means),
// which words the shuffle moved, how copies of a repeated word are paired.
import { sameValues } from '../base/dom.js';
import { exponential, fixed } from '../printing/pyformat.js';
import { ROUNDING } from './permutation-experiment.js';

// The sentence above the maps: what the summary table's row of `encoding`
// (its largest difference `max`) means for these two sentences.
export function headline(words, order, encoding, max) {
  const n = words.length;
  const shuffled = order.map((i) => words[i]);
  // a sentence the shuffle left as it was is the same input: every
  // encoding's outputs are the same, seat by seat (the table's zeros)
  if (shuffled.every((w, i) => w === words[i])) {
    if (words.every((w) => w === words[0])) {
      return `Every word here is “${words[0]}”, so every shuffle leaves the sentence as it was: the layer reads the same input, and every encoding gives the same outputs. To see the order matter, type a sentence with two different words.`;
    }
    const swapped = movedWords(order, words);
    if (!swapped.length)
      return 'This order leaves every word in its place, so the sentence is as it was and every encoding gives the same outputs: press Shuffle.';
    return `This shuffle only swaps copies of ${quoteList(swapped)}, so it leaves the sentence as it was: the layer reads the same input, and every encoding gives the same outputs. Press Shuffle.`;
  }
  if (encoding === 'none') {
    return `No position signal: each word’s output just moved with the word (largest difference ${formatDiff(max)}). Attention alone cannot tell “${words.join(' ')}” from “${shuffled.join(' ')}”.`;
  }
  if (max < ROUNDING) {
    // e.g. ALiBi on a reversed sentence: every distance |n - m| is kept
    const why =
      encoding === 'alibi' && shuffled.every((w, i) => w === words[n - 1 - i])
        ? ', since ALiBi’s bias depends only on the distance |n − m| and reversing the sentence keeps every distance'
        : '';
    return `With ${encoding}, each word’s output still just moved with the word (largest difference ${formatDiff(max)}${max > 0 ? ', float32 rounding' : ''}): this encoding cannot tell these two orders apart${why}.`;
  }
  return `With ${encoding}, the same word at another position gives another output (largest difference ${formatDiff(max)}): the layer can tell the two orders apart.`;
}

// In words: which words the shuffle moved, and where to. The copies of a
// repeated word move as one group (which copy went where is not in the
// sentence): both copies of "the" from seats 0 and 3 to seats 1 and 4.
export function describeOrder(order, words) {
  const shuffled = order.map((i) => words[i]);
  const seatsOf = (list, w) => list.flatMap((x, i) => (x === w ? [i] : []));
  const parts = [];
  let stay = 0;
  for (const w of new Set(words)) {
    const from = seatsOf(words, w);
    const to = seatsOf(shuffled, w);
    if (sameValues(from, to)) stay += from.length;
    else if (from.length === 1) parts.push(`“${w}” from position ${from[0]} to position ${to[0]}`);
    else
      parts.push(
        `${from.length === 2 ? 'both' : `the ${from.length}`} copies of “${w}” from positions ${andList(from)} to positions ${andList(to)}`,
      );
  }
  if (!parts.length) {
    const swapped = movedWords(order, words);
    return swapped.length
      ? `Only copies of ${quoteList(swapped)} trade places: every position holds the word it held.`
      : 'Every word stays in its place.';
  }
  return `It moves ${parts.join(', ')}${stay ? `; the other ${stay === 1 ? 'word stays' : `${stay} words stay`}` : ''}.`;
}

// The words the order moves, each once (for an order that keeps the
// sentence: the words whose copies it swaps).
const movedWords = (order, words) => [...new Set(order.filter((v, i) => v !== i).map((v) => words[v]))];

// Above the per-word table, where a word repeats: how its copies are paired.
export function copiesNote(words) {
  const counts = new Map();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const repeated = [...counts].filter(([, c]) => c > 1);
  if (!repeated.length) return '';
  const which =
    repeated.length === 1
      ? `“${repeated[0][0]}” comes ${repeated[0][1]} times`
      : `${quoteList(repeated.map(([w]) => w))} each come more than once`;
  return `${which}, and the layer cannot tell copies of a word apart: the copies are compared in reading order (first with first), unless pairing them another way makes every output row match; then “new position” shows that pairing, and the layer cannot tell the two orders apart.`;
}

// [0, 3] -> "0 and 3"; [0, 1, 2] -> "0, 1 and 2"
function andList(items) {
  return items.length === 1 ? String(items[0]) : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const quoteList = (ws) => andList(ws.map((w) => `“${w}”`));

// A difference between outputs: 0, 1.2e-6 (below 1e-3) or 0.1234.
export function formatDiff(d) {
  if (d === 0) return '0';
  return d < 1e-3 ? exponential(d, 1) : fixed(d, 4);
}
