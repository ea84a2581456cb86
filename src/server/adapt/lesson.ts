/**
 * LE Adapt's stage shapes live in `src/common/adapt-lesson.ts`, so the screens read the stored
 * outputs with the same types; the server's stages keep importing them from here.
 */
export * from '../../common/adapt-lesson';
