// Blackboard and other styled letters in the lesson's MathML: Chromium
// ignores mathvariant (except "normal"), so the build writes ℝ, 𝐱, ℒ as
// Unicode characters instead (scripts/lesson/lesson-format.mjs, mathvariantLetters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRenderer } from '../../scripts/build/build-lesson.mjs';
import { mathvariantLetters, styledLetter } from '../../scripts/lesson/lesson-format.mjs';
import { builtLesson } from './built-lesson.mjs';

test('\\mathbb{R} renders as ℝ with no mathvariant left, the TeX kept in the annotation', () => {
  const { render } = createRenderer();
  const { html } = render('Each position gets a vector in $\\mathbb{R}^{d}$ and $\\mathbb{N}$.', {
    file: 'snippet.md',
    section: 's',
  });
  assert.match(html, /<mi>ℝ<\/mi>/);
  assert.match(html, /<mi>ℕ<\/mi>/);
  assert.doesNotMatch(html, /mathvariant="double-struck"/);
  assert.match(html, /<annotation encoding="application\/x-tex">\\mathbb\{R\}\^\{d\}<\/annotation>/);
});

test('bold, script, fraktur and digits map to the right code points, including the Letterlike holes', () => {
  assert.equal(styledLetter('R', 'double-struck'), 'ℝ');
  assert.equal(styledLetter('A', 'double-struck'), '𝔸');
  assert.equal(styledLetter('1', 'double-struck'), '𝟙');
  assert.equal(styledLetter('x', 'bold'), '𝐱');
  assert.equal(styledLetter('W', 'bold'), '𝐖');
  assert.equal(styledLetter('θ', 'bold-italic'), '𝜽');
  assert.equal(styledLetter('Ω', 'bold'), '𝛀');
  assert.equal(styledLetter('L', 'script'), 'ℒ');
  assert.equal(styledLetter('h', 'italic'), 'ℎ');
  assert.equal(styledLetter('Z', 'fraktur'), 'ℨ');
  assert.equal(styledLetter('+', 'bold'), null);
});

test('mathvariant="normal" and letters with no styled form are left as KaTeX wrote them', () => {
  const normal = '<mi mathvariant="normal">Δ</mi>';
  assert.equal(mathvariantLetters(normal), normal);
  const symbol = '<mi mathvariant="bold">∂</mi>';
  assert.equal(mathvariantLetters(symbol), symbol);
  assert.equal(mathvariantLetters('<mn mathvariant="bold">12</mn>'), '<mn>𝟏𝟐</mn>');
  assert.equal(mathvariantLetters('<mtext mathvariant="bold">word</mtext>'), '<mtext mathvariant="bold">word</mtext>');
});

test('the whole lesson page carries no mathvariant but "normal"', async () => {
  const { page } = await builtLesson();
  const variants = new Set([...page.matchAll(/<m(?:i|n)\b[^>]*mathvariant="([a-z-]+)"/g)].map((m) => m[1]));
  variants.delete('normal');
  assert.deepEqual([...variants], []);
});
