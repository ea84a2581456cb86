declare module 'mespeak' {
  interface SpeakOptions {
    rawdata: 'array';
    /** Words a minute (default 175). */
    speed?: number;
    pitch?: number;
    /** Extra pause between words, in units of 10 ms. */
    wordgap?: number;
    variant?: string;
    voice?: string;
  }
  const meSpeak: {
    loadConfig(config: object): void;
    loadVoice(voice: object): void;
    isConfigLoaded(): boolean;
    isVoiceLoaded(voice: string): boolean;
    /** A complete WAV file (16-bit mono), or null when the engine fails. */
    speak(text: string, options: SpeakOptions): number[] | Uint8Array | null;
  };
  export default meSpeak;
}
