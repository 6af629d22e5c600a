// The treatments a request to the directory may name (the home's and the
// member home's request form): every active treatment of every listed spa,
// about 220 in the demo data. The form is an island, so the list is in the
// page twice, once as the <select>'s options and once as the island's props.
// As props (JSON, then escaped into an HTML attribute: every quote is six
// bytes) it was 55 KB of the home page's 150 KB, all of it parsed before the
// first paint (issue 27); as one line per treatment it is about 15 KB.

/** A treatment anywhere in the directory, for requests that name no spa. */
export interface DirectoryServiceChoice {
  id: number;
  name: string;
  /** "Complimentary", "From $150.00"... */
  priceLabel: string;
  spaName: string;
  /** Options are grouped by it ("Facial", "Injectable"...). */
  category: string;
}

const FIELD = '\t';
const LINE = '\n';
// A tab or line break inside a name would shift the fields; none belongs in one.
const flat = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

/** The list as one string of lines: id, name, spa, category, price label. */
export function packTreatments(choices: readonly DirectoryServiceChoice[]): string {
  return choices.map((c) => [String(c.id), c.name, c.spaName, c.category, c.priceLabel].map(flat).join(FIELD)).join(LINE);
}

export function unpackTreatments(packed: string): DirectoryServiceChoice[] {
  if (!packed) return [];
  return packed.split(LINE).map((line) => {
    const [id = '', name = '', spaName = '', category = '', priceLabel = ''] = line.split(FIELD);
    return { id: Number(id), name, spaName, category, priceLabel };
  });
}
