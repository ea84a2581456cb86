import { describe, expect, it } from 'vitest';
import { exampleFlow, exports, pipeline, roadmap, whatItDoes, workspace } from './adapt-content';

describe('LE Adapt content', () => {
  it('lists the accepted inputs: SCORM zip, PDF, DOCX, TXT and a typed prompt', () => {
    expect(whatItDoes.inputs.map((input) => input.detail)).toEqual([
      '.zip',
      '.pdf',
      '.docx',
      '.txt',
      'typed description',
    ]);
  });

  it('runs the four pipeline steps in order, each ending in the next stage', () => {
    expect(pipeline.steps.map((step) => step.title)).toEqual([
      'Text extraction',
      'Structured lessons, quizzes and objectives',
      'Simplification, translation or adaptation',
      'Final bias and clarity review',
    ]);
    expect(pipeline.steps.map((step) => step.stage)).toEqual([
      'Extracted raw text',
      'Structured lesson',
      'Accessible lesson',
      'Final reviewed lesson',
    ]);
  });

  it('has the four workspace tabs with unique values', () => {
    expect(workspace.tabs.map((tab) => tab.label)).toEqual([
      'Upload/Prompt',
      'Processing Queue',
      'AI Output & Review',
      'Export & Delivery',
    ]);
    expect(new Set(workspace.tabs.map((tab) => tab.value)).size).toBe(workspace.tabs.length);
  });

  it('names the stages in the queue tab in the pipeline order', () => {
    const queue = workspace.tabs.find((tab) => tab.value === 'queue')!;
    const stages = pipeline.steps.map((step) => step.stage.toLowerCase()).join(', ');
    expect(queue.points.join(' ')).toContain(stages);
  });

  it('walks the example flow from Create New Course to Send to LMS', () => {
    const titles = exampleFlow.steps.map((step) => step.title);
    expect(titles[0]).toBe('Create New Course');
    expect(titles.at(-1)).toBe('Export to SCORM and Send to LMS');
    expect(titles.indexOf('Review')).toBeLessThan(titles.indexOf('Accept or edit'));
  });

  it('exports SCORM JSON, Markdown, HTML and MP3', () => {
    expect(exports.formats.map((format) => format.title)).toEqual([
      'SCORM JSON',
      'Markdown',
      'HTML',
      'MP3 audio',
    ]);
  });

  it('presents every future idea as roadmap, not as a feature', () => {
    expect(roadmap.title).toMatch(/roadmap/i);
    expect(roadmap.intro).toMatch(/not part of the product yet/);
    expect(roadmap.items.map((item) => item.title)).toEqual([
      'Searchable course archive',
      'Learner type selector',
      'Interactive quiz builder',
      'Model insights panel',
    ]);
  });
});
