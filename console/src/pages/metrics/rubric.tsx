import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Metric, ParseBulkResponseSchema } from '@voice-eval/contract';
import { useState } from 'react';
import type { z } from 'zod';
import { ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { count } from '../../format.ts';

type Parsed = z.infer<typeof ParseBulkResponseSchema>;

const EXAMPLE = `Label #1
Name: Price objection
Definition: The caller says the price is too high or asks for a discount.
Examples:
- "That's way too expensive"

Label #2
Name: Timing objection
Definition: The caller wants to postpone the decision.`;

/**
 * A multi-label rubric pasted in, parsed by the API into metrics (nothing saved), shown, then
 * created as drafts: with a parent category first, its labels as the parent's sub-metrics.
 */
export const RubricForm = ({ id, onCreated }: { id: string; onCreated: (made: Metric[]) => void }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const [parentName, setParentName] = useState('');
  const [made, setMade] = useState(0);
  const parse = useMutation({
    mutationFn: (form: FormData) => {
      const text = (key: string) => form.get(key)?.toString().trim() || undefined;
      const parent = text('parent_name');
      return client.metrics.parseBulk({
        prompt: form.get('prompt')?.toString() ?? '',
        ...(parent
          ? {
              parent_name: parent,
              parent_description: text('parent_description') ?? '',
              selection_mode:
                form.get('selection_mode') === 'single_choice' ? 'single_choice' : 'multi_label',
            }
          : {}),
        enrich_descriptions: form.get('enrich') === 'on',
      });
    },
    onSuccess: () => setMade(0),
  });
  const create = useMutation({
    mutationFn: async (parsed: Parsed) => {
      const created: Metric[] = [];
      let parentId: string | null = null;
      if (parsed.parent) {
        const { name, description, selection_mode, supported_surfaces, enabled_surfaces } = parsed.parent;
        const parent = await client.metrics.createDraft({
          name,
          description,
          selection_mode,
          metric_type: 'category',
          supported_surfaces,
          enabled_surfaces,
        });
        created.push(parent);
        setMade(created.length);
        parentId = parent.id;
      }
      for (const m of parsed.metrics) {
        created.push(
          await client.metrics.createDraft({
            name: m.name,
            description: m.description,
            example: m.source_label.examples.join('\n'),
            metric_type: m.metric_type,
            custom_data_type: m.custom_data_type,
            custom_config: m.custom_config,
            supported_surfaces: m.supported_surfaces,
            enabled_surfaces: m.enabled_surfaces,
            capture_rationale: m.capture_rationale,
            tags: m.suggested_tags,
            ...(parentId ? { parent_metric_id: parentId } : {}),
          }),
        );
        setMade(created.length);
      }
      return created;
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['metrics'] }),
    onSuccess: onCreated,
  });
  const parsed = parse.data;
  const total = parsed ? parsed.metrics.length + (parsed.parent ? 1 : 0) : 0;
  return (
    <div id={id}>
      <form
        className="panel-form"
        aria-label="Paste a rubric"
        onSubmit={(e) => {
          e.preventDefault();
          parse.mutate(new FormData(e.currentTarget));
        }}
      >
        <label className="wide">
          Rubric <span className="muted">(one “Label #N” block per metric)</span>
          <textarea name="prompt" required rows={10} placeholder={EXAMPLE} />
        </label>
        <label>
          Parent category <span className="muted">(optional: the labels become its sub-metrics)</span>{' '}
          <input name="parent_name" value={parentName} onChange={(e) => setParentName(e.target.value)} />
        </label>
        {parentName.trim() && (
          <>
            <label>
              Parent description <input name="parent_description" />
            </label>
            <label>
              A call may have{' '}
              <select name="selection_mode" defaultValue="multi_label">
                <option value="multi_label">several of the labels</option>
                <option value="single_choice">one label only</option>
              </select>
            </label>
          </>
        )}
        <label>
          <input type="checkbox" name="enrich" /> Have a model rewrite each definition into a scoring
          description (needs an AI provider)
        </label>
        <button type="submit" disabled={parse.isPending}>
          {parse.isPending ? 'Parsing…' : 'Parse'}
        </button>
        {parse.isError && <ProblemView error={parse.error} what="rubric" />}
      </form>
      {parsed && (
        <section aria-labelledby="parsed-heading">
          <h2 id="parsed-heading">
            {count(parsed.metrics.length, 'metric')} parsed
            {parsed.parent && <span className="muted"> under “{parsed.parent.name}”</span>}
          </h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
                <th scope="col">Examples</th>
              </tr>
            </thead>
            <tbody>
              {parsed.metrics.map((m) => (
                <tr key={m.name}>
                  <td>{m.name}</td>
                  <td>{m.metric_type}</td>
                  <td className="text">{m.description || <span className="muted">none</span>}</td>
                  <td className="text">
                    {m.source_label.examples.join('\n') || <span className="muted">none</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="inline-form">
            <button type="button" onClick={() => create.mutate(parsed)} disabled={create.isPending}>
              Create {count(total, 'draft')}
            </button>
            <output>{create.isPending ? `${made} of ${total} created…` : ''}</output>
          </div>
          {create.isError && (
            <>
              <p className="error">
                {made} of {total} drafts were created before this:
              </p>
              <ProblemView error={create.error} what="draft" />
            </>
          )}
        </section>
      )}
    </div>
  );
};
