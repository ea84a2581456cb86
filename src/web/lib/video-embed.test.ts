import { describe, expect, it } from 'vitest';
import { videoEmbed } from './video-embed';

describe('videoEmbed', () => {
  it.each([
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    ],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    ],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
  ])('embeds %s through the provider player', (address, src) => {
    expect(videoEmbed(address)).toEqual({ kind: 'iframe', src });
  });

  it('plays a video file in the browser player', () => {
    expect(videoEmbed('https://media.example.edu/lungs.mp4')).toEqual({
      kind: 'file',
      src: 'https://media.example.edu/lungs.mp4',
    });
  });

  it.each([
    ['another site', 'https://lectures.example.edu/watch/42'],
    ['a YouTube id with other characters', 'https://www.youtube.com/watch?v=abc"><script>'],
    ['plain http', 'http://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ])('links to %s instead of embedding it', (_label, address) => {
    expect(videoEmbed(address).kind).toBe('link');
  });
});
