/** How sample data is labelled in every manifest, file and message. */
export const SAMPLE_MODEL = 'meteopunto-sample';
export const SAMPLE_NOTE = 'SAMPLE DATA: synthetic fields from `meteopunto demo` (seeded synthetic weather on the real ICON-2I terrain), not a forecast';
