// Stands in for fontkit in the PDF function's bundle: pdfkit calls fontkit only to embed a font file,
// and that function uses only the PDF standard fonts. This keeps 700 KB of font tooling out of the bundle.
export function create() {
  throw new Error('Only the PDF standard fonts are available in this function');
}
