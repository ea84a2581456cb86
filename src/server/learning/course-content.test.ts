import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CourseContentError, listCourseDirectories, readCourseDirectory } from './course-content';

describe('the courses in content/courses', () => {
  const dirs = listCourseDirectories();

  it('are there to validate', () => {
    expect(dirs.length).toBeGreaterThan(0);
  });

  it.each(dirs.map((dir) => [path.basename(dir), dir]))('%s follows the format', (_name, dir) => {
    const course = readCourseDirectory(dir);
    const lessons = course.manifest.modules.flatMap((m) => m.lessons);
    expect(course.bodies.size).toBe(lessons.length);
    expect(course.questions.length).toBeGreaterThan(0);
  });
});

describe('readCourseDirectory', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function writeCourse(course: unknown, questions: unknown, lessons: Record<string, string> = {}) {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'course-content-'));
    const dir = path.join(root, 'lungs');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'course.json'), JSON.stringify(course));
    fs.writeFileSync(path.join(dir, 'questions.json'), JSON.stringify(questions));
    for (const [file, body] of Object.entries(lessons)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), body);
    }
    return dir;
  }

  const course = {
    slug: 'lungs',
    title: 'The lungs',
    subject: 'Anatomy',
    description: 'How we breathe.',
    board: 'science',
    sample: true,
    modules: [
      {
        slug: 'airways',
        title: 'Airways',
        summary: 'From nose to alveoli.',
        lessons: [
          {
            slug: 'trachea',
            title: 'The trachea',
            kind: 'markdown',
            estimated_minutes: 10,
            file: 'lessons/airways/trachea.md',
          },
        ],
      },
    ],
  };
  const question = {
    id: 'gas',
    module: 'airways',
    type: 'multiple_choice',
    prompt: 'Which gas do we absorb?',
    choices: [
      { id: 'a', text: 'Oxygen' },
      { id: 'b', text: 'Nitrogen' },
      { id: 'c', text: 'Argon' },
    ],
    answer: { choice: 'a' },
    key_points: ['Oxygen diffuses in', 'Carbon dioxide diffuses out'],
    hints: ['What do cells burn?', 'We inhale for it'],
    worked_example: 'Carbon dioxide leaves the blood.',
    misconceptions: [{ misconception: 'Nitrogen', feedback: 'Not absorbed.', choice: 'b' }],
    difficulty: 1,
    prerequisite: {
      concept: 'Diffusion',
      refresher: 'High to low concentration.',
      questions: [
        { prompt: 'Passive?', type: 'short_text', answer: { text: 'Yes' } },
        {
          prompt: 'Oxygen in air?',
          type: 'numeric',
          answer: { value: 21, tolerance: 1, unit: '%' },
        },
      ],
    },
  };

  it('reads a valid course with its lesson bodies', () => {
    const dir = writeCourse(course, [question], { 'lessons/airways/trachea.md': '# Trachea' });
    const read = readCourseDirectory(dir);
    expect(read.bodies.get('airways/trachea')).toBe('# Trachea');
    expect(read.questions[0]!.id).toBe('gas');
  });

  it('lists every problem, naming the file and the field', () => {
    const dir = writeCourse(course, [
      { ...question, answer: { choice: 'z' } },
      { ...question, id: 'gas', module: 'nowhere', hints: ['only one'] },
    ]);
    let error: unknown;
    try {
      readCourseDirectory(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CourseContentError);
    const problems = (error as CourseContentError).problems;
    expect(problems).toContain(
      'questions.json 0.answer.choice: answer names "z", which is not one of the choices',
    );
    expect(problems.some((p) => p.startsWith('questions.json 1.hints:'))).toBe(true);
  });

  it('refuses a missing lesson file, a duplicate id and a question of an unknown module', () => {
    const dir = writeCourse(course, [question, { ...question, module: 'nowhere' }]);
    expect(() => readCourseDirectory(dir)).toThrow(
      /lessons\/airways\/trachea\.md: missing[\s\S]*id "gas" twice[\s\S]*module "nowhere" is not in course\.json/,
    );
  });

  it('refuses JSON that does not parse', () => {
    const dir = writeCourse(course, [question], { 'lessons/airways/trachea.md': 'x' });
    fs.writeFileSync(path.join(dir, 'questions.json'), '[{');
    expect(() => readCourseDirectory(dir)).toThrow(/questions\.json: /);
  });
});
