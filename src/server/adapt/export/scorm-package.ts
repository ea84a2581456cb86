/**
 * SCORM 1.2 and SCORM 2004 (4th edition) packages of a lesson: a zip with `imsmanifest.xml` and
 * one SCO (the accessible HTML page, which reports status, score and suspend data to the
 * runtime), plus the narration MP3 when there is one.
 */
import { strToU8, zipSync } from 'fflate';
import type { AccessibleLesson } from '../lesson';
import type { LessonAudio } from './audio';
import { escapeHtml, lessonHtml } from './html';
import { MASTERY_SCORE, type ScormVersion } from './scorm-runtime';

export interface ScormPackageOptions {
  version: ScormVersion;
  /** Stable identifier of the package (the job's id), letters, digits and hyphens. */
  identifier: string;
  audio?: LessonAudio | null;
}

const xml = escapeHtml;

export function scormManifest(
  lesson: Pick<AccessibleLesson, 'title'>,
  options: { version: ScormVersion; identifier: string; files: string[] },
): string {
  const id = options.identifier.replace(/[^A-Za-z0-9-]/g, '-');
  const title = xml(lesson.title);
  const files = options.files.map((f) => `<file href="${xml(f)}"/>`).join('');
  if (options.version === '1.2') {
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lyceum-${id}" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org-${id}">
    <organization identifier="org-${id}">
      <title>${title}</title>
      <item identifier="item-${id}" identifierref="sco-${id}" isvisible="true">
        <title>${title}</title>
        <adlcp:masteryscore>${MASTERY_SCORE}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-${id}" type="webcontent" adlcp:scormtype="sco" href="index.html">${files}</resource>
  </resources>
</manifest>
`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lyceum-${id}" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org-${id}">
    <organization identifier="org-${id}">
      <title>${title}</title>
      <item identifier="item-${id}" identifierref="sco-${id}">
        <title>${title}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="lesson-quiz" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY_SCORE / 100}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-${id}" type="webcontent" adlcp:scormType="sco" href="index.html">${files}</resource>
  </resources>
</manifest>
`;
}

export function scormPackage(lesson: AccessibleLesson, options: ScormPackageOptions): Uint8Array {
  const audio = options.audio ?? null;
  const page = lessonHtml(lesson, {
    scorm: options.version,
    audio: audio ? { src: 'lesson.mp3', sentences: audio.sentences } : null,
  });
  const files: Record<string, Uint8Array> = { 'index.html': strToU8(page) };
  if (audio) files['lesson.mp3'] = audio.mp3;
  const manifest = scormManifest(lesson, {
    version: options.version,
    identifier: options.identifier,
    files: Object.keys(files),
  });
  // The manifest first: some LMS importers read only the zip's opening entries to detect it.
  return zipSync(
    { 'imsmanifest.xml': strToU8(manifest), ...files },
    { level: 6, mtime: new Date('2026-01-01T00:00:00Z') },
  );
}
