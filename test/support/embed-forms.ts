/** A form with every field type, a `visibleIf` and a file field: the hosted page and its e2e tests use it. */
export const ALL_TYPES_DRAFT = {
  title: 'Every field <b>type</b>',
  description: 'Tell us about you & your order.',
  fields: [
    { key: 'intro', type: 'content', label: 'Before you start', help: 'It takes two minutes.' },
    { key: 'name', type: 'text', label: 'Your <script>name</script>', required: true, help: 'As on your ID' },
    { key: 'notes', type: 'textarea', label: 'Notes' },
    { key: 'email', type: 'email', label: 'Email', required: true },
    { key: 'phone', type: 'tel', label: 'Phone' },
    { key: 'age', type: 'number', label: 'Age', validation: { min: 18, max: 150, integer: true } },
    { key: 'born', type: 'date', label: 'Born' },
    { key: 'color', type: 'select', label: 'Colour', options: [{ value: 'red', label: 'Red' }, { value: 'blue', label: 'Blue' }] },
    { key: 'size', type: 'radio', label: 'Size', required: true, options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] },
    { key: 'size_note', type: 'text', label: 'Why large?', required: true, visibleIf: { field: 'size', equals: 'l' } },
    { key: 'tags', type: 'multiselect', label: 'Tags', options: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }] },
    { key: 'agree', type: 'checkbox', label: 'I agree', required: true },
    { key: 'proof', type: 'file', label: 'Proof', validation: { maxItems: 2 } },
    { key: 'source', type: 'hidden', label: 'Source' },
  ],
};
