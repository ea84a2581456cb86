/**
 * The accessible HTML export (and the page inside the SCORM packages): one self-contained,
 * semantic document — landmarks, a skip link, headings in order, labelled quiz controls,
 * visible focus, AA contrast, left-aligned text, motion only when the reader allows it — with
 * the profile's layout (ADHD screens and checklists, dyslexia typography) and a read-along mode
 * that highlights the sentence being spoken, from the MP3's timings or, without an MP3, the
 * browser's own speech.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AccessibleLesson, QuizQuestion } from '../lesson';
import { CLOZE_GAP, LEARNER_PROFILE_LABELS, expectedAnswer } from '../lesson';
import { markdownBlocks, splitSentences } from '../text';
import { sectionMarkdown, type SentenceTiming } from './audio';
import { scormRuntimeScript, type ScormVersion } from './scorm-runtime';

export interface HtmlOptions {
  /** Relative address of the lesson's MP3 and its sentence timings, when there is audio. */
  audio?: { src: string; sentences: SentenceTiming[] } | null;
  /** Report status, score and suspend data to this SCORM runtime. */
  scorm?: ScormVersion | null;
  /** Lay out the translation instead of the English lesson. */
  useTranslation?: boolean;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Inline Markdown (strong, emphasis, code, http(s) and mailto links) on escaped text. */
export function inlineHtml(markdown: string): string {
  const code: string[] = [];
  let html = escapeHtml(markdown).replace(/`([^`]+)`/g, (_m, c: string) => {
    code.push(c);
    return `\uE000${code.length - 1}\uE000`;
  });
  html = html
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '<strong>$2</strong>')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1<em>$2</em>');
  return html.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => `<code>${code[Number(i)]}</code>`);
}

/** Numbers the spoken sentences in reading order, as the audio does. */
class SentenceCounter {
  next = 0;
  span(markdown: string): string {
    return `<span class="s" data-s="${this.next++}">${inlineHtml(markdown)}</span>`;
  }
  sentences(markdown: string): string {
    return splitSentences(markdown)
      .map((s) => this.span(s))
      .join(' ');
  }
}

function blocksHtml(markdown: string, counter: SentenceCounter, headingBase: number): string {
  return markdownBlocks(markdown)
    .map((block) => {
      switch (block.kind) {
        case 'heading': {
          const level = Math.min(6, headingBase + block.level - 1);
          return `<h${level}>${counter.span(block.text)}</h${level}>`;
        }
        case 'paragraph':
          return `<p>${counter.sentences(block.text)}</p>`;
        case 'quote':
          return `<blockquote><p>${counter.sentences(block.text)}</p></blockquote>`;
        case 'list': {
          const tag = block.ordered ? 'ol' : 'ul';
          const items = block.items.map((i) => `<li>${counter.sentences(i)}</li>`).join('');
          return `<${tag}>${items}</${tag}>`;
        }
        case 'code':
          return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
        case 'table': {
          const [head, ...rows] = block.rows;
          const th = (head ?? []).map((c) => `<th scope="col">${inlineHtml(c)}</th>`).join('');
          const body = rows
            .map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`)
            .join('');
          return `<div class="table"><table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></div>`;
        }
      }
    })
    .join('\n');
}

function quizHtml(quiz: QuizQuestion[]): string {
  if (quiz.length === 0) return '';
  const items = quiz
    .map((q, n) => {
      const id = `q-${escapeHtml(q.id)}`;
      const number = n + 1;
      const explained = q.explanation ? ` data-explanation="${escapeHtml(q.explanation)}"` : '';
      switch (q.kind) {
        case 'multiple_choice': {
          const choices = q.choices
            .map(
              (c) =>
                `<label class="choice"><input type="radio" name="${id}" value="${escapeHtml(c.id)}"> ${inlineHtml(c.text)}</label>`,
            )
            .join('');
          return `<fieldset class="question" data-kind="choice" data-answer="${escapeHtml(q.answer)}"${explained} data-id="${id}"><legend>${number}. ${inlineHtml(q.prompt)}</legend>${choices}<p class="feedback" role="status"></p></fieldset>`;
        }
        case 'cloze': {
          const gap = '<span class="gap"><span class="sr-only">blank</span></span>';
          const text = q.text.split(CLOZE_GAP).map(inlineHtml).join(gap);
          return `<div class="question" data-kind="cloze" data-answer="${escapeHtml(q.answer)}"${explained} data-id="${id}"><label for="${id}">${number}. ${text}</label><input id="${id}" type="text" autocomplete="off"><p class="feedback" role="status"></p></div>`;
        }
        case 'short_answer':
          return `<div class="question" data-kind="open" data-answer="${escapeHtml(expectedAnswer(q))}" data-points="${escapeHtml(q.keyPoints.join(' · '))}"${explained} data-id="${id}"><label for="${id}">${number}. ${inlineHtml(q.prompt)}</label><textarea id="${id}" rows="3"></textarea><p class="feedback" role="status"></p></div>`;
      }
    })
    .join('\n');
  return `<section aria-labelledby="quiz-heading" class="quiz"><h2 id="quiz-heading">Quiz</h2><form id="quiz">${items}<button type="submit">Check my answers</button><p id="score" role="status"></p></form></section>`;
}

const BASE_CSS = `
:root{color-scheme:light;--ink:#1a1a1a;--paper:#fdfbf5;--accent:#1d4ed8;--mark:#fde68a;--muted:#4b5563}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:1.125rem/1.7 system-ui,-apple-system,"Segoe UI",sans-serif;text-align:left}
main{max-width:70ch;margin:0 auto;padding:1.5rem 1rem 4rem}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
h1,h2,h3{line-height:1.3}
.meta,.minutes{color:var(--muted);font-size:1rem}
.s.speaking{background:var(--mark);border-radius:.2em}
.readalong{position:sticky;top:0;background:var(--paper);padding:.5rem 0;border-bottom:1px solid #d1d5db;display:flex;gap:.75rem;flex-wrap:wrap;align-items:center}
button{font:inherit;padding:.4rem .9rem;border:2px solid var(--accent);border-radius:.4rem;background:#fff;color:var(--accent);cursor:pointer;min-height:44px;min-width:44px}
button[aria-pressed=true]{background:var(--accent);color:#fff}
.question{border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.question label,.question legend{display:block;font-weight:600}
.choice{font-weight:400!important;padding:.25rem 0}
input[type=text],textarea{font:inherit;width:100%;padding:.4rem;border:2px solid #6b7280;border-radius:.3rem;color:var(--ink);background:#fff}
.gap{display:inline-block;border-bottom:2px solid var(--ink);width:4em}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.feedback{min-height:1.5em;margin:.5rem 0 0}
.checklist{list-style:none;padding:0}.checklist label{font-weight:400}
.screen-nav{display:flex;gap:.75rem;align-items:center;margin-top:1rem}
.table{overflow-x:auto}table{border-collapse:collapse}th,td{border:1px solid #9ca3af;padding:.3rem .6rem;text-align:left}
pre{overflow-x:auto;background:#f3f4f6;padding:.75rem;border-radius:.4rem}
dt{font-weight:700}dd{margin:0 0 .75rem}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
`;

const DYSLEXIA_CSS = `
body{font-family:"OpenDyslexic",Verdana,sans-serif;font-size:1.2rem;line-height:1.9;letter-spacing:.05em;word-spacing:.16em}
p,li{margin-bottom:1.1em}
main{max-width:62ch}
em{font-style:normal;font-weight:700}
`;

let dyslexiaFont: string | null = null;
function dyslexiaFontFace(): string {
  if (dyslexiaFont === null) {
    const require = createRequire(import.meta.url);
    const file =
      require.resolve('@fontsource/opendyslexic/files/opendyslexic-latin-400-normal.woff2');
    const data = readFileSync(file).toString('base64');
    dyslexiaFont = `@font-face{font-family:"OpenDyslexic";font-style:normal;font-weight:400;font-display:swap;src:url(data:font/woff2;base64,${data}) format("woff2")}`;
  }
  return dyslexiaFont;
}

/** JSON inside a script element: `<` escaped so no text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function lessonHtml(lesson: AccessibleLesson, options: HtmlOptions = {}): string {
  const translated = options.useTranslation && lesson.translation ? lesson.translation : null;
  const title = translated?.title ?? lesson.title;
  const language = translated?.language ?? lesson.language;
  const counter = new SentenceCounter();
  const titleSpan = counter.span(title);
  const adhd = lesson.profile === 'adhd';

  const sections = lesson.sections
    .map((section, i) => {
      const t = translated?.sections.find((s) => s.id === section.id);
      const heading = counter.span(t?.heading ?? section.heading);
      const id = `section-${i + 1}`;
      const minutes = `<p class="minutes">About ${section.minutes} minute${section.minutes === 1 ? '' : 's'}</p>`;
      if (adhd && !t) {
        const screens = section.screens
          .map(
            (screen, n) =>
              `<div class="screen" data-screen="${n}"><p class="meta">Screen ${n + 1} of ${section.screens.length}</p>${blocksHtml(screen, counter, 3)}</div>`,
          )
          .join('\n');
        const checklist = section.checklist
          .map(
            (item, n) =>
              `<li><label><input type="checkbox" data-check="${id}-${n}"> ${escapeHtml(item)}</label></li>`,
          )
          .join('');
        return `<section aria-labelledby="${id}" class="adhd"><h2 id="${id}">${heading}</h2>${minutes}<h3>Checklist</h3><ul class="checklist">${checklist}</ul><div class="screens">${screens}</div><div class="screen-nav" hidden><button type="button" data-prev>Previous screen</button><span class="meta" aria-live="polite" data-where></span><button type="button" data-next>Next screen</button></div></section>`;
      }
      const body = blocksHtml(t?.body ?? sectionMarkdown(section), counter, 3);
      return `<section aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${minutes}${body}</section>`;
    })
    .join('\n');

  const objectives = lesson.objectives.length
    ? `<section aria-labelledby="objectives-heading"><h2 id="objectives-heading">What you will learn</h2><ul>${lesson.objectives.map((o) => `<li>${inlineHtml(o.text)}</li>`).join('')}</ul></section>`
    : '';
  const glossary = lesson.glossary.length
    ? `<section aria-labelledby="glossary-heading"><h2 id="glossary-heading">Glossary</h2><dl>${lesson.glossary
        .map(
          (g) =>
            `<dt>${escapeHtml(g.term)}</dt><dd>${inlineHtml(g.simpleDefinition ?? g.definition)}${g.simpleDefinition ? `<br><span class="meta">${inlineHtml(g.definition)}</span>` : ''}</dd>`,
        )
        .join('')}</dl></section>`
    : '';
  const totalMinutes = lesson.sections.reduce((n, s) => n + s.minutes, 0);
  const meta = `<p class="meta">${escapeHtml(LEARNER_PROFILE_LABELS[lesson.profile])} · reading grade ${lesson.readingLevel.after.grade} · about ${totalMinutes} minutes</p>`;
  const audio = options.audio && !translated ? options.audio : null;
  const readAlong = `<div class="readalong" role="region" aria-label="Read along">${
    audio
      ? `<audio controls preload="metadata" src="${escapeHtml(audio.src)}"></audio>`
      : '<button type="button" id="speak" aria-pressed="false">Read aloud</button>'
  }<button type="button" id="follow" aria-pressed="true">Highlight the sentence being read</button></div>`;
  const data = {
    timings: audio ? audio.sentences.map((s) => [s.start, s.end]) : null,
    scorm: options.scorm ?? null,
    lang: language,
  };
  const css = `${lesson.profile === 'dyslexia' ? dyslexiaFontFace() + DYSLEXIA_CSS : ''}${BASE_CSS}`;
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
<a class="skip" href="#content">Skip to the lesson</a>
<main id="content">
<header><h1>${titleSpan}</h1>${meta}</header>
${readAlong}
${objectives}
${sections}
${glossary}
${quizHtml(lesson.quiz)}
</main>
<script type="application/json" id="lesson-data">${scriptJson(data)}</script>
<script>${options.scorm ? scormRuntimeScript : ''}${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The page's behaviour: read-along (MP3 timings or speech synthesis), ADHD screen paging and
 * the quiz check, which reports to the SCORM runtime when the page is a SCO. A sentence stays
 * highlighted through the pause after it, until the next one is heard (decision 0519): the
 * highlight does not blink off between sentences.
 */
const PAGE_SCRIPT = `
(function(){
var data=JSON.parse(document.getElementById('lesson-data').textContent);
var spans=[].slice.call(document.querySelectorAll('.s'));
var follow=document.getElementById('follow');
var current=null;
function mark(i){if(current===i)return;if(current!==null&&spans[current])spans[current].classList.remove('speaking');current=i;
if(i===null||!spans[i]||follow.getAttribute('aria-pressed')!=='true')return;spans[i].classList.add('speaking');
var r=spans[i].getBoundingClientRect();if(r.top<0||r.bottom>innerHeight){spans[i].scrollIntoView({block:'center',behavior:matchMedia('(prefers-reduced-motion: reduce)').matches?'auto':'smooth'});}}
follow.addEventListener('click',function(){var on=follow.getAttribute('aria-pressed')!=='true';follow.setAttribute('aria-pressed',String(on));if(!on)mark(null);});
var audio=document.querySelector('audio');
if(audio&&data.timings){audio.addEventListener('timeupdate',function(){var t=audio.currentTime,found=null,last=data.timings.length-1;
for(var i=last;i>=0;i--){if(t>=data.timings[i][0]){found=i===last&&t>=data.timings[i][1]?null:i;break;}}mark(found);});
audio.addEventListener('ended',function(){mark(null);});}
var speakButton=document.getElementById('speak');
if(speakButton){if(!('speechSynthesis' in window)){speakButton.disabled=true;speakButton.textContent='Read aloud (not available in this browser)';}
else speakButton.addEventListener('click',function(){
if(speakButton.getAttribute('aria-pressed')==='true'){speechSynthesis.cancel();speakButton.setAttribute('aria-pressed','false');mark(null);return;}
speakButton.setAttribute('aria-pressed','true');var i=0;
(function next(){if(i>=spans.length||speakButton.getAttribute('aria-pressed')!=='true'){speakButton.setAttribute('aria-pressed','false');mark(null);return;}
var u=new SpeechSynthesisUtterance(spans[i].textContent);u.lang=data.lang;var n=i;u.onstart=function(){mark(n);};u.onend=function(){i++;next();};speechSynthesis.speak(u);})();});}
var state={screens:{},checks:{},answers:{}};
var scorm=window.LyceumScorm?window.LyceumScorm.start(data.scorm):null;
if(scorm){var saved=scorm.load();if(saved)try{state=JSON.parse(saved);}catch(e){}}
function save(){if(scorm)scorm.save(JSON.stringify(state));}
[].forEach.call(document.querySelectorAll('section.adhd'),function(section){
var screens=[].slice.call(section.querySelectorAll('.screen'));if(screens.length<2)return;
var nav=section.querySelector('.screen-nav');nav.hidden=false;var where=nav.querySelector('[data-where]');
var at=state.screens[section.getAttribute('aria-labelledby')]||0;
function show(n){at=Math.max(0,Math.min(screens.length-1,n));screens.forEach(function(s,k){s.hidden=k!==at;});
where.textContent='Screen '+(at+1)+' of '+screens.length;nav.querySelector('[data-prev]').disabled=at===0;nav.querySelector('[data-next]').disabled=at===screens.length-1;
state.screens[section.getAttribute('aria-labelledby')]=at;save();}
nav.querySelector('[data-prev]').addEventListener('click',function(){show(at-1);});
nav.querySelector('[data-next]').addEventListener('click',function(){show(at+1);});show(at);});
[].forEach.call(document.querySelectorAll('[data-check]'),function(box){var k=box.getAttribute('data-check');box.checked=!!state.checks[k];
box.addEventListener('change',function(){state.checks[k]=box.checked;save();});});
function norm(s){return String(s).toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu,' ').trim();}
var form=document.getElementById('quiz');
if(form){var questions=[].slice.call(form.querySelectorAll('.question'));
questions.forEach(function(q){var id=q.getAttribute('data-id'),v=state.answers[id];if(v===undefined)return;
if(q.getAttribute('data-kind')==='choice'){var r=q.querySelector('input[value="'+CSS.escape(v)+'"]');if(r)r.checked=true;}else q.querySelector('input,textarea').value=v;});
form.addEventListener('input',function(){questions.forEach(function(q){var id=q.getAttribute('data-id');
if(q.getAttribute('data-kind')==='choice'){var c=q.querySelector('input:checked');if(c)state.answers[id]=c.value;}else state.answers[id]=q.querySelector('input,textarea').value;});save();});
form.addEventListener('submit',function(e){e.preventDefault();var graded=0,correct=0;
questions.forEach(function(q){var kind=q.getAttribute('data-kind'),answer=q.getAttribute('data-answer'),fb=q.querySelector('.feedback');
var why=q.getAttribute('data-explanation');why=why?' '+why:'';
if(kind==='open'){fb.textContent='Compare with the reference answer: '+answer+' Key points: '+q.getAttribute('data-points')+why;return;}
graded++;var given=kind==='choice'?(q.querySelector('input:checked')||{}).value:q.querySelector('input').value;
var ok=kind==='choice'?given===answer:norm(given)===norm(answer);if(ok)correct++;
fb.textContent=ok?'Correct.':(kind==='choice'?'Not quite: the answer is '+q.querySelector('input[value="'+CSS.escape(answer)+'"]').parentNode.textContent.trim()+'.':'Not quite: the answer is '+answer+'.');fb.textContent+=why;});
var score=graded?Math.round(100*correct/graded):100;
document.getElementById('score').textContent='You got '+correct+' of '+graded+' right ('+score+'%).';
if(scorm)scorm.finish(score);});}
})();
`;
