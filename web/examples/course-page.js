// The host side of an iframe embed: resize the iframe to the height it posts
// and record the quiz answers it reports. Messages are accepted only from the
// iframe's own window and origin, and checked for shape; their text goes in
// with textContent, never as HTML.
const frame = document.getElementById('quiz-frame');
const widgetOrigin = new URL(frame.src, location.href).origin;
const gradebook = document.getElementById('gradebook');
window.hostMessages = []; // for the tests

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== widgetOrigin) return;
  const data = event.data;
  if (data === null || typeof data !== 'object') return;
  window.hostMessages.push(data);
  if (data.type === 'posenc:resize' && Number.isFinite(data.height) && data.height > 0 && data.height < 20000) {
    frame.style.height = `${Math.ceil(data.height)}px`;
  } else if (data.type === 'posenc:answered' && typeof data.quizId === 'string') {
    const li = document.createElement('li');
    const verdict = data.revealed === true ? 'revealed' : data.correct ? 'correct' : 'not correct';
    li.textContent = `${data.quizId}: ${verdict} (score ${data.score}/${data.maxScore}, attempt ${data.attempts})`;
    if (gradebook.firstElementChild?.textContent === 'No answer yet.') gradebook.replaceChildren();
    gradebook.append(li);
  }
});
