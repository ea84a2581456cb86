/**
 * A small PDF of Chinese, Japanese and Korean text written by hand (no library, nothing
 * downloaded), the way many CJK documents are made: each line's font is a CID font that is
 * named, not embedded, and its text is encoded through one of Adobe's predefined CMaps
 * (UniGB-UCS2-H, UniJIS-UCS2-H, UniKS-UCS2-H). A reader needs those CMaps to know which
 * characters the codes are; without them the text cannot be read or selected.
 */
export interface CjkLine {
  text: string;
  /** Adobe's character collection and the matching UCS-2 CMap. */
  collection: 'GB1' | 'Japan1' | 'Korea1';
}

const cmaps: Record<CjkLine['collection'], { encoding: string; font: string; supplement: number }> =
  {
    GB1: { encoding: 'UniGB-UCS2-H', font: 'STSong-Light', supplement: 4 },
    Japan1: { encoding: 'UniJIS-UCS2-H', font: 'KozMinPr6N-Regular', supplement: 6 },
    Korea1: { encoding: 'UniKS-UCS2-H', font: 'HYSMyeongJo-Medium', supplement: 2 },
  };

/** UCS-2 code units in hex, as a PDF hex string. */
function ucs2(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex.toUpperCase()}>`;
}

export function cjkPdf(lines: CjkLine[]): Buffer {
  const content = lines
    .map((line, i) => `BT /F${i + 1} 24 Tf 72 ${760 - i * 48} Td ${ucs2(line.text)} Tj ET`)
    .join('\n');
  const fontObjects = lines.flatMap((line, i) => {
    const { encoding, font, supplement } = cmaps[line.collection];
    const descendant = 5 + lines.length + i;
    return [
      {
        index: 5 + i,
        body: `<< /Type /Font /Subtype /Type0 /BaseFont /${font}-${encoding} /Encoding /${encoding} /DescendantFonts [${descendant} 0 R] >>`,
      },
      {
        index: descendant,
        body: `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${font} /CIDSystemInfo << /Registry (Adobe) /Ordering (${line.collection}) /Supplement ${supplement} >> /FontDescriptor ${descendant + lines.length} 0 R /DW 1000 >>`,
      },
      {
        index: descendant + lines.length,
        body: `<< /Type /FontDescriptor /FontName /${font} /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>`,
      },
    ];
  });
  const fonts = lines.map((_, i) => `/F${i + 1} ${5 + i} 0 R`).join(' ');
  const objects = new Map<number, string>([
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [
      3,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << ${fonts} >> >> >>`,
    ],
    [4, `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`],
  ]);
  for (const { index, body } of fontObjects) objects.set(index, body);
  const count = objects.size;
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let n = 1; n <= count; n++) {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${n} 0 obj\n${objects.get(n)!}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${count + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${count + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
