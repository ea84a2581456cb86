import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccessible } from '../accessible/accessible-stage';
import { adaptTestLesson } from '../adapt-test-lesson';
import type { AccessibleLesson } from '../lesson';
import { spokenSentences } from './audio';
import { inlineHtml, lessonHtml } from './html';
import { lessonMarkdown } from './markdown';
import { scormPackage } from './scorm-package';
import { SCORM_JSON_FORMAT, scormJson } from './scorm-json';

let none: AccessibleLesson;
let adhd: AccessibleLesson;
let dyslexia: AccessibleLesson;

beforeAll(async () => {
  const make = (profile: AccessibleLesson['profile']) =>
    makeAccessible(adaptTestLesson(), { profile, targetGrade: 8, translateTo: null }, { ai: null });
  none = (await make('none')).lesson;
  adhd = (await make('adhd')).lesson;
  dyslexia = (await make('dyslexia')).lesson;
});

describe('inlineHtml', () => {
  it('escapes HTML and keeps only http(s) and mailto links', () => {
    expect(
      inlineHtml(
        '<img src=x onerror=alert(1)> **bold** [x](javascript:alert%281%29) [y](https://a.example/b)',
      ),
    ).toBe(
      '&lt;img src=x onerror=alert(1)&gt; <strong>bold</strong> x <a href="https://a.example/b">y</a>',
    );
  });
});

describe('lessonHtml', () => {
  it('is a semantic document with one numbered span per spoken sentence', () => {
    const html = lessonHtml(none);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<a class="skip" href="#content">');
    expect(html).toContain('<main id="content">');
    const spans = [...html.matchAll(/data-s="(\d+)"/g)].map((m) => Number(m[1]));
    expect(spans).toEqual([...spans.keys()]);
    expect(spans).toHaveLength(spokenSentences(none).length);
    expect(html).not.toMatch(/text-align:\s*justify/);
    expect(html).toContain(
      '<button type="button" id="speak" aria-pressed="false">Read aloud</button>',
    );
  });

  it('uses the MP3 timings for read-along when there is audio', () => {
    const html = lessonHtml(none, {
      audio: {
        src: 'lesson.mp3',
        sentences: [{ index: 0, sectionId: null, text: 'x', start: 0, end: 1.5 }],
      },
    });
    expect(html).toContain('<audio controls preload="metadata" src="lesson.mp3"></audio>');
    expect(html).toContain('"timings":[[0,1.5]]');
  });

  it('ADHD: screens, a checklist and time estimates; dyslexia: the friendly font and spacing', () => {
    const adhdHtml = lessonHtml(adhd);
    expect(adhdHtml).toContain('class="screen" data-screen="1"');
    expect(adhdHtml).toMatch(/<ul class="checklist"><li><label><input type="checkbox"/);
    expect(adhdHtml).toMatch(/About \d+ minutes?/);
    const dyslexiaHtml = lessonHtml(dyslexia);
    expect(dyslexiaHtml).toContain('font-family:"OpenDyslexic"');
    expect(dyslexiaHtml).toContain('src:url(data:font/woff2;base64,');
    expect(dyslexiaHtml).toContain('letter-spacing:.05em');
    expect(lessonHtml(none)).not.toContain('OpenDyslexic');
  });

  it('cannot be broken out of by lesson text', () => {
    const hostile = { ...none, title: '</script><script>alert(1)</script>' };
    const html = lessonHtml(hostile);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;');
  });
});

describe('lessonMarkdown', () => {
  it('holds objectives, sections, glossary, quiz and answers', () => {
    const md = lessonMarkdown(adhd);
    expect(md).toMatch(/^# Photosynthesis\n/);
    expect(md).toContain('## What you will learn');
    expect(md).toMatch(/- \[ \] Photosynthesis is/);
    expect(md).toContain('**chlorophyll**:');
    expect(md).toContain('2. The green pigment in chloroplasts is called ____.');
    expect(md).toMatch(/### Answers\n\n1\. Oxygen\n2\. chlorophyll\n3\. Light provides/);
  });
});

describe('SCORM packages', () => {
  it('SCORM 1.2: manifest first, a SCO that calls the 1.2 runtime, the MP3 listed', () => {
    const zip = unzipSync(
      scormPackage(none, {
        version: '1.2',
        identifier: 'job-1',
        audio: { mp3: new Uint8Array([0xff, 0xf3]), durationSeconds: 1, sentences: [], voice: 'v' },
      }),
    );
    expect(Object.keys(zip)).toEqual(['imsmanifest.xml', 'index.html', 'lesson.mp3']);
    const manifest = strFromU8(zip['imsmanifest.xml']!);
    expect(manifest).toContain('<schemaversion>1.2</schemaversion>');
    expect(manifest).toContain('adlcp:scormtype="sco" href="index.html"');
    expect(manifest).toContain('<file href="lesson.mp3"/>');
    expect(manifest).toContain('<adlcp:masteryscore>80</adlcp:masteryscore>');
    const page = strFromU8(zip['index.html']!);
    expect(page).toContain('"scorm":"1.2"');
    expect(page).toContain("find(v12?'API':'API_1484_11')");
  });

  it('SCORM 2004: the 2004 manifest and runtime', () => {
    const zip = unzipSync(scormPackage(none, { version: '2004', identifier: 'job 2/x' }));
    const manifest = strFromU8(zip['imsmanifest.xml']!);
    expect(manifest).toContain('<schemaversion>2004 4th Edition</schemaversion>');
    expect(manifest).toContain('identifier="lyceum-job-2-x"');
    expect(manifest).toContain('adlcp:scormType="sco"');
    expect(strFromU8(zip['index.html']!)).toContain('"scorm":"2004"');
  });

  it('escapes the title in the manifest', () => {
    const zip = unzipSync(
      scormPackage({ ...none, title: 'A & <B>' }, { version: '1.2', identifier: 'x' }),
    );
    expect(strFromU8(zip['imsmanifest.xml']!)).toContain('<title>A &amp; &lt;B&gt;</title>');
  });

  it('SCORM JSON carries the manifest items, the lesson and the quiz with bank types', () => {
    const json = scormJson(none, { identifier: 'job-1' });
    expect(json.format).toBe(SCORM_JSON_FORMAT);
    expect(json.scorm.items[0]).toEqual({
      identifier: 'item-job-1',
      title: 'Photosynthesis',
      href: 'index.html',
      masteryScore: 80,
    });
    expect(json.quiz.map((q) => q.bankType)).toEqual([
      'multiple_choice',
      'short_text',
      'short_text',
    ]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});
