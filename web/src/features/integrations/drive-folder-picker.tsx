import { Fragment, useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { useListGoogleDriveFoldersQuery } from '../../lib/api/gateway-api.generated';
import { formatFolderOwners } from './integration-rules';

/** A Drive folder as the settings keep it. */
export type ChosenFolder = { id: string; name: string };

/** Shown in the folder list when there are no folders, or they could not be read (silent, §8). */
export const NO_FOLDERS = 'No Drive folders to show.';

type DriveFolderPickerProps = {
  /** The folder Parlance watches; null before one is chosen. */
  selected: ChosenFolder | null;
  /** Called with the folder chosen from the list; the list closes. */
  onChoose: (folder: ChosenFolder) => void;
};

/**
 * Workspace's Drive folder (spec part 2 §2.12): the folder watched, and 'Choose folder', which
 * lists the folders the Google account can see (name, Shared, owners) in a dialog; choosing one
 * closes it and hands the folder on.
 */
export function DriveFolderPicker({ selected, onChoose }: DriveFolderPickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className="drive-folder">
      <div className="drive-folder__current">
        <dl className="facts integration-settings__account">
          <dt>Drive folder</dt>
          <dd>{selected ? selected.name : 'None chosen'}</dd>
        </dl>
        <button type="button" className="button drive-folder__choose" aria-haspopup="dialog" onClick={() => setOpen(true)}>
          Choose folder
        </button>
      </div>
      <p className="field__hint drive-folder__hint">Parlance imports the Google Meet transcripts saved in this folder.</p>
      <Modal
        open={open}
        title="Choose a Drive folder"
        onClose={() => setOpen(false)}
        footer={
          <button type="button" className="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        }
      >
        <FolderList
          selectedId={selected?.id ?? null}
          onChoose={(folder) => {
            setOpen(false);
            onChoose(folder);
          }}
        />
      </Modal>
    </div>
  );
}

/** The folders, read each time the dialog opens; a failure shows the empty list's hint, nothing more. */
function FolderList({ selectedId, onChoose }: { selectedId: string | null; onChoose: (folder: ChosenFolder) => void }) {
  const id = useId();
  const { data, isLoading, isError } = useListGoogleDriveFoldersQuery(undefined, { refetchOnMountOrArgChange: true });
  if (isLoading) {
    return (
      <p className="field__hint" role="status">
        Loading folders…
      </p>
    );
  }
  const folders = isError ? [] : (data?.folders ?? []);
  if (folders.length === 0) return <p className="field__hint">{NO_FOLDERS}</p>;

  return (
    <ul className="drive-folders" aria-label="Drive folders">
      {folders.map((folder, index) => {
        const current = folder.id === selectedId;
        // Shared, its owners, and whether it is the folder watched now: ' · ' between them.
        const details = [
          folder.isShared ? <span className="badge badge--info">Shared</span> : null,
          formatFolderOwners(folder.owners),
          current ? 'Current folder' : null,
        ].filter((part) => part !== null);
        return (
          <li key={folder.id}>
            <button
              type="button"
              className="drive-folders__option"
              aria-labelledby={`${id}-${index}-name`}
              aria-describedby={details.length > 0 ? `${id}-${index}-details` : undefined}
              aria-current={current || undefined}
              onClick={() => onChoose({ id: folder.id, name: folder.name })}
            >
              <span id={`${id}-${index}-name`} className="drive-folders__name">
                {folder.name}
              </span>
              {details.length > 0 ? (
                <span id={`${id}-${index}-details`} className="drive-folders__details">
                  {details.map((part, at) => (
                    <Fragment key={at}>
                      {at > 0 ? ' · ' : null}
                      {part}
                    </Fragment>
                  ))}
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
